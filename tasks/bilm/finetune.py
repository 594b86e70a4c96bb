"""
`allennlp finetune-bilm TASK_CONFIG OUTPUT_DIR`: the paper's §A.1 domain step, in one command.

Before freezing the biLM for a task, Peters et al. fine-tune it for one epoch on the task's
training text (without labels). This command reads that text with the task config's own reader
(every text field of every training instance becomes a line; the dev data's text is the held-out
set), continues training the biLM in ELMO_OPTIONS_FILE / ELMO_WEIGHT_FILE on it with
configs/bilm_pretrain.jsonnet, and writes the result as options.json + weights.hdf5 in
OUTPUT_DIR/elmo, ready for ELMO_OPTIONS_FILE / ELMO_WEIGHT_FILE in the task's config.
"""
import argparse
import json
import logging
import os
from pathlib import Path

from allennlp.commands.subcommand import Subcommand
from allennlp.commands.train import train_model_from_file
from allennlp.common import Params
from allennlp.data import DatasetReader
from allennlp.data.fields import TextField

from tasks.bilm.export import export_elmo_files
from tasks.environment import PROJECT_ROOT

logger = logging.getLogger(__name__)

PRETRAIN_CONFIG = PROJECT_ROOT / "configs" / "bilm_pretrain.jsonnet"


def write_task_text(reader: DatasetReader, data_path: str, corpus_path: Path) -> int:
    """Writes the text of every `TextField` of every instance, one per line; returns the line count."""
    lines = 0
    with open(corpus_path, "w", encoding="utf-8") as corpus:
        for instance in reader.read(data_path):
            for field in instance.fields.values():
                if isinstance(field, TextField) and field.tokens:
                    corpus.write(" ".join(token.text for token in field.tokens) + "\n")
                    lines += 1
    return lines


@Subcommand.register("finetune-bilm")
class FinetuneBilm(Subcommand):
    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = (
            "Fine-tune the biLM in ELMO_OPTIONS_FILE / ELMO_WEIGHT_FILE on a task's training text "
            "(Peters et al. 2018, §A.1) and export it for ELMo."
        )
        subparser = parser.add_parser(self.name, description=description, help=description)
        subparser.add_argument("task_config", help="the task's config, e.g. configs/ner_elmo.jsonnet")
        subparser.add_argument("output_dir", help="receives corpus/, run/ and elmo/")
        subparser.add_argument("--epochs", type=int, default=1, help="passes over the task text (paper: 1)")
        subparser.add_argument("-o", "--overrides", default="", help="JSON overrides for the biLM training config")
        subparser.set_defaults(func=_finetune)
        return subparser


def _finetune(args: argparse.Namespace) -> None:
    output_dir = Path(args.output_dir)
    (output_dir / "corpus").mkdir(parents=True, exist_ok=True)
    task = Params.from_file(args.task_config)
    reader = DatasetReader.from_params(task.pop("dataset_reader"))
    corpora = {}
    for split, key in (("train", "train_data_path"), ("heldout", "validation_data_path")):
        corpora[split] = output_dir / "corpus" / f"{split}.txt"
        lines = write_task_text(reader, task[key], corpora[split])
        logger.info("Wrote %d lines of %s text to %s", lines, task[key], corpora[split])
    overrides = {
        "train_data_path": str(corpora["train"]),
        "validation_data_path": str(corpora["heldout"]),
        "model.options_file": os.environ["ELMO_OPTIONS_FILE"],
        "model.initial_weight_file": os.environ["ELMO_WEIGHT_FILE"],
        "trainer.num_epochs": args.epochs,
        **(json.loads(args.overrides) if args.overrides else {}),
    }
    model = train_model_from_file(str(PRETRAIN_CONFIG), str(output_dir / "run"), overrides=json.dumps(overrides))
    export_elmo_files(model, output_dir / "elmo")
    logger.info("Fine-tuned biLM written to %s (options.json, weights.hdf5)", output_dir / "elmo")
