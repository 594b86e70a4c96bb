"""
`allennlp finetune-bilm TASK_CONFIG OUTPUT_DIR`: the paper's §A.1 domain step, in one command.

Before freezing the biLM for a task, Peters et al. fine-tune it for one epoch on the task's
training text (without labels), and their Table 7 gives the held-out perplexity before and after.
A weight file in the original layout holds no softmax (the published ones do not either), so this
runs in two stages, each `allennlp train configs/bilm_pretrain.jsonnet` on the task's text:

1. `softmax/`: one epoch that trains only a softmax over the task text's vocabulary, the biLM's
   own weights frozen. Its held-out perplexity is the *before* figure: the biLM as given, with the
   best output layer one epoch can fit (so it is, if anything, lower than with the biLM's
   original softmax, and the drop that follows is, if anything, understated).
2. `finetune/`: `--epochs` epochs (the paper: 1) of everything, from stage 1; its held-out
   perplexity is the *after* figure.

The text: every `TextField` of every instance the task config's dev/test reader reads from the
training data, each distinct text once (a SQuAD passage has several questions, an SRL sentence
several predicates, SST's training reader would give every phrase), and the same of the dev data
for the held-out set. Every training instance is used whatever TRAIN_FRACTION, TRAIN_LIMIT and
EVAL_LIMIT say. Writes OUTPUT_DIR/elmo/{options.json,weights.hdf5} (for ELMO_OPTIONS_FILE /
ELMO_WEIGHT_FILE) and OUTPUT_DIR/perplexity.json (Table 7's row); a rerun resumes an interrupted
stage and skips a finished one.
"""

import argparse
import json
import logging
import os
import shutil
import time
from pathlib import Path
from typing import Any, Dict, Iterable, Mapping

from allennlp.commands.subcommand import Subcommand
from allennlp.commands.train import train_model_from_file
from allennlp.common import Params
from allennlp.data import DatasetReader
from allennlp.data.fields import TextField
from allennlp.models.archival import load_archive

from tasks.bilm.weight_file import export_elmo_files
from tasks.common.command import Command
from tasks.environment import PROJECT_ROOT, check_pairs, setting

logger = logging.getLogger(__name__)

PRETRAIN_CONFIG = PROJECT_ROOT / "configs" / "bilm_pretrain.jsonnet"
PERPLEXITY_FILE = "perplexity.json"
# The biLM's own weights, frozen while stage 1 fits the softmax (`BidirectionalLm`'s module names).
BILM_WEIGHTS = ["^character_encoder\\.", "^stacks\\."]
# The whole of each split, whatever the environment asks of the task's runs.
WHOLE_DATA = {"TRAIN_FRACTION": "1", "TRAIN_LIMIT": "", "EVAL_LIMIT": ""}


def write_task_text(reader: DatasetReader, data_path: str, corpus_path: Path) -> Dict[str, int]:
    """Writes each distinct text of every `TextField` of every instance, one a line, in order of first appearance."""
    seen = set()
    counts = {"lines": 0, "tokens": 0}
    with open(corpus_path, "w", encoding="utf-8") as corpus:
        for text in _texts(reader.read(data_path)):
            if text not in seen:
                seen.add(text)
                corpus.write(text + "\n")
                counts["lines"] += 1
                counts["tokens"] += text.count(" ") + 1
    return counts


def _texts(instances: Iterable) -> Iterable[str]:
    for instance in instances:
        for field in instance.fields.values():
            if isinstance(field, TextField) and field.tokens:
                yield " ".join(token.text for token in field.tokens)


def finetune(
    task_config: str,
    output_dir: Path,
    options_file: str,
    weight_file: str,
    epochs: int = 1,
    overrides: Mapping[str, Any] = None,
) -> Dict[str, Any]:
    """
    Runs both stages (or what is left of them), exports the fine-tuned biLM, and returns
    perplexity.json's content.
    """
    started = time.monotonic()
    output_dir.mkdir(parents=True, exist_ok=True)
    task = Params.from_file(task_config, ext_vars={**os.environ, **WHOLE_DATA})
    reader = DatasetReader.from_params(task.pop("validation_dataset_reader"))
    (output_dir / "corpus").mkdir(exist_ok=True)
    text = {}
    for split, key in (("train", "train_data_path"), ("heldout", "validation_data_path")):
        path = output_dir / "corpus" / f"{split}.txt"
        text[split] = {"data": task[key], **write_task_text(reader, task[key], path)}
        logger.info(
            "%s text of %s: %d distinct lines, %d tokens, in %s",
            split,
            task[key],
            text[split]["lines"],
            text[split]["tokens"],
            path,
        )
    common = {
        "train_data_path": str(output_dir / "corpus" / "train.txt"),
        "validation_data_path": str(output_dir / "corpus" / "heldout.txt"),
        **(overrides or {}),
    }
    softmax_dir, finetune_dir = output_dir / "softmax", output_dir / "finetune"
    _train_stage(
        softmax_dir,
        {
            **common,
            "model.options_file": options_file,
            "model.initial_weight_file": weight_file,
            "trainer.num_epochs": 1,
            "trainer.optimizer.parameter_groups": [[BILM_WEIGHTS, {"requires_grad": False}]],
        },
    )
    # Stage 2 starts from stage 1's model and vocabulary: overrides of either were applied there.
    carried = {key: value for key, value in common.items() if not key.startswith(("model.", "vocabulary."))}
    model = _train_stage(
        finetune_dir,
        {
            **carried,
            "vocabulary": {"type": "from_files", "directory": str(softmax_dir / "vocabulary")},
            "model": {"type": "from_archive", "archive_file": str(softmax_dir / "model.tar.gz")},
            "trainer.num_epochs": epochs,
        },
    )
    export_elmo_files(model, output_dir / "elmo")
    result = {
        "task_config": task_config,
        "biLM": {"options_file": options_file, "weight_file": weight_file},
        "text": text,
        "vocabulary_size": model.vocab.get_vocab_size("tokens"),
        "epochs": epochs,
        "before": _perplexities(softmax_dir),
        "after": _perplexities(finetune_dir),
        "seconds": round(time.monotonic() - started, 1),
    }
    (output_dir / PERPLEXITY_FILE).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    logger.info(
        "Held-out perplexity %.1f before, %.1f after %d epoch(s) of fine-tuning; biLM in %s",
        result["before"]["perplexity"],
        result["after"]["perplexity"],
        epochs,
        output_dir / "elmo",
    )
    return result


def _train_stage(directory: Path, overrides: Dict[str, Any]):
    """`allennlp train` of the pretraining config into `directory`: skipped when finished, resumed when interrupted."""
    if (directory / "model.tar.gz").is_file() and (directory / "metrics.json").is_file():
        return load_archive(str(directory / "model.tar.gz")).model
    recover = (directory / "config.json").is_file()
    if recover and not any(directory.glob("training_state_*.th")):
        # Stopped before its first checkpoint: nothing to resume, and its config.json may name
        # another checkout's files, which `--recover` would refuse. Start it afresh.
        logger.warning("%s stopped before its first checkpoint; starting it afresh", directory)
        shutil.rmtree(directory)
        recover = False
    return train_model_from_file(str(PRETRAIN_CONFIG), str(directory), overrides=json.dumps(overrides), recover=recover)


def _perplexities(directory: Path) -> Dict[str, float]:
    metrics = json.loads((directory / "metrics.json").read_text(encoding="utf-8"))
    return {name: metrics[f"validation_{name}"] for name in ("forward_perplexity", "backward_perplexity", "perplexity")}


@Subcommand.register("finetune-bilm")
class FinetuneBilm(Command):
    description = (
        "Fine-tune the biLM in ELMO_OPTIONS_FILE / ELMO_WEIGHT_FILE on a task's training text "
        "(Peters et al. 2018, §A.1), give its held-out perplexity before and after (Table 7), "
        "and export it for ELMo."
    )

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("task_config", help="the task's config, e.g. configs/ner_elmo.jsonnet")
        parser.add_argument("output_dir", help="receives corpus/, softmax/, finetune/, elmo/ and perplexity.json")
        parser.add_argument("--epochs", type=int, default=1, help="passes over the task text (paper: 1)")
        parser.add_argument("-o", "--overrides", default="", help="JSON overrides for the biLM training config")

    def run(self, args: argparse.Namespace) -> None:
        check_pairs()
        finetune(
            args.task_config,
            Path(args.output_dir),
            setting("ELMO_OPTIONS_FILE"),
            setting("ELMO_WEIGHT_FILE"),
            epochs=args.epochs,
            overrides=json.loads(args.overrides) if args.overrides else None,
        )
