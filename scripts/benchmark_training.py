"""
Seconds per training epoch and per validation pass of each task's model, as `allennlp train` runs
it on this machine: AllenNLP's stock components against the suite's, 1 and 2 torch threads.

    SHARED_DATA_DIR=../shared/data python scripts/benchmark_training.py --settings 1 2 2x1 --epochs 4 \
        --output runs/benchmark_training.json

A setting is a number of torch threads in one process (`1`, `2`), or processes x threads (`2x1`: two
processes of one thread each, AllenNLP's distributed trainer over the CPU, `DEVICES=cpu,cpu`, each
taking half of every batch).

Each task trains its baseline config (and NER its ELMo config too, over a warm activation cache:
`allennlp elmo-cache` fills it first) on a fixed, seeded part of its data (`TRAIN_LIMIT`,
`EVAL_LIMIT`, the runner's own mechanism), GloVe 6B 50-d where the config takes word vectors. A
callback notes the time of each epoch's last training batch and of the epoch's end: training is the
first span, validation (with the checkpoint written after it) the second. The first epoch is left
out (start-up, caches, allocator warm-up); the figures are the median, minimum and maximum over the
others, in wall-clock and process CPU seconds. Variants, in one invocation, alternating:

- `stock`: the config with AllenNLP's own component where the suite has replaced one
  (SRL: `alternating_lstm` for `fast_alternating_lstm`);
- `suite`: the config as it is.

A task with nothing replaced runs once, as `suite`. Take the figures on an otherwise idle machine.
"""

import argparse
import json
import logging
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List

ROOT = Path(__file__).resolve().parent.parent
ALLENNLP = str(Path(sys.executable).parent / "allennlp")

from allennlp.training.callbacks import TrainerCallback  # noqa: E402

logger = logging.getLogger("benchmark_training")


@TrainerCallback.register("benchmark_phase_clock")
class PhaseClock(TrainerCallback):
    """
    Appends, per epoch, the wall and CPU seconds of its training batches and of what follows them
    (validation, the checkpoint) to `phase_clock.jsonl` in the serialization directory.
    """

    def on_start(self, trainer, is_primary: bool = True, **kwargs) -> None:
        self._epoch_start = self._now()
        self._training_end = None

    def on_batch(
        self,
        trainer,
        batch_inputs,
        batch_outputs,
        batch_metrics,
        epoch,
        batch_number,
        is_training,
        is_primary=True,
        batch_grad_norm=None,
        **kwargs,
    ) -> None:
        if is_training:
            self._training_end = self._now()

    def on_epoch(self, trainer, metrics, epoch: int, is_primary: bool = True, **kwargs) -> None:
        if not is_primary:  # in distributed training, the first process speaks for all
            return
        end = self._now()
        start, middle = self._epoch_start, self._training_end or end
        record = {
            "epoch": epoch,
            "training_wall": middle[0] - start[0],
            "training_cpu": middle[1] - start[1],
            "validation_wall": end[0] - middle[0],
            "validation_cpu": end[1] - middle[1],
        }
        with open(Path(self.serialization_dir) / "phase_clock.jsonl", "a") as clock:
            clock.write(json.dumps(record) + "\n")
        self._epoch_start, self._training_end = end, None

    @staticmethod
    def _now():
        return time.perf_counter(), time.process_time()


def tasks(shared: Path) -> Dict[str, Dict[str, Any]]:
    """What each task trains on, and the stock components it replaces (dotted overrides)."""
    glove = str(shared / "glove" / "glove.6B.50d.txt.gz")
    runs = ROOT / "runs" / "data"
    return {
        "ner": {
            "config": "configs/ner_baseline.jsonnet",
            "train_limit": 3000,
            "eval_limit": 300,
            "environment": {
                "NER_TRAIN_DATA": shared / "conll2003/eng.train",
                "NER_DEV_DATA": shared / "conll2003/eng.testa",
                "NER_TEST_DATA": shared / "conll2003/eng.testb",
                "NER_WORD_VECTORS": glove,
            },
            "stock": {},
        },
        "ner_elmo": {
            "config": "configs/ner_elmo.jsonnet",
            "train_limit": 3000,
            "eval_limit": 300,
            "fill_cache": True,
            "environment": {
                "NER_TRAIN_DATA": shared / "conll2003/eng.train",
                "NER_DEV_DATA": shared / "conll2003/eng.testa",
                "NER_TEST_DATA": shared / "conll2003/eng.testb",
                "NER_WORD_VECTORS": glove,
            },
            "stock": {},
        },
        "srl": {
            "config": "configs/srl_baseline.jsonnet",
            "train_limit": 2769,
            "eval_limit": 500,
            "environment": {
                "SRL_DATA_FORMAT": "universal_propbank",
                "SRL_TRAIN_DATA": runs / "up_split/train_part.conllu",
                "SRL_DEV_DATA": runs / "up_split/heldout_part.conllu",
                "SRL_TEST_DATA": shared / "srl_up_ewt/en_ewt-up-test.conllu",
                "SRL_WORD_VECTORS": glove,
            },
            "stock": {"model.encoder.type": "alternating_lstm"},
        },
        "sst": {
            "config": "configs/sst_baseline.jsonnet",
            "train_limit": 2000,
            "eval_limit": 500,
            "environment": {
                "SST_TRAIN_DATA": shared / "sst/train.txt",
                "SST_DEV_DATA": shared / "sst/dev.txt",
                "SST_TEST_DATA": shared / "sst/test.txt",
                "SST_WORD_VECTORS": glove,
            },
            "stock": {},
        },
        "snli": {
            "config": "configs/snli_baseline.jsonnet",
            "train_limit": 2000,
            "eval_limit": 500,
            "environment": {
                "SNLI_TRAIN_DATA": runs / "snli_split/train_part.jsonl",
                "SNLI_DEV_DATA": runs / "snli_split/heldout_part.jsonl",
                "SNLI_TEST_DATA": shared / "snli/snli_1.0_test.jsonl",
                "SNLI_WORD_VECTORS": glove,
            },
            "stock": {},
        },
        "squad": {
            "config": "configs/squad_baseline.jsonnet",
            "train_limit": 500,
            "eval_limit": 200,
            "environment": {
                "SQUAD_TRAIN_DATA": shared / "squad/train-v1.1.reconstructed.json",
                "SQUAD_DEV_DATA": shared / "squad/dev-v1.1.json",
                "SQUAD_WORD_VECTORS": glove,
            },
            "stock": {},
        },
        "coref": {
            "config": "configs/coref_baseline.jsonnet",
            "train_limit": "",
            "eval_limit": "",
            "environment": {
                "COREF_TRAIN_DATA": runs / "litbank_fold0/train.conll",
                "COREF_DEV_DATA": runs / "litbank_fold0/dev.conll",
                "COREF_TEST_DATA": runs / "litbank_fold0/test.conll",
                "COREF_WORD_VECTORS": glove,
            },
            "stock": {},
            # The cpu plan's sizes: with the config's own, an epoch is about 8 minutes here.
            "overrides": {
                "dataset_reader.max_training_sentences": 8,
                "validation_dataset_reader.max_sentences": 20,
                "model.max_antecedents": 30,
            },
        },
    }


def train(task: Dict[str, Any], variant: str, setting: str, epochs: int, work: Path) -> List[Dict[str, float]]:
    """One `allennlp train` of `task`; the phase clock's records, epoch by epoch."""
    processes, _, threads = setting.rpartition("x")
    devices = ",".join(["cpu"] * int(processes or 1))
    environment = dict(
        os.environ,
        OMP_NUM_THREADS=threads,
        MKL_NUM_THREADS=threads,
        DEVICES=devices,
        TRAIN_LIMIT=str(task["train_limit"]),
        EVAL_LIMIT=str(task["eval_limit"]),
        TRAIN_FRACTION="1",
        ELMO_CACHE_DIR=str(work / "cache"),
        **{k: str(v) for k, v in task["environment"].items()},
    )
    overrides = {
        "trainer.num_epochs": epochs,
        "trainer.patience": None,
        "evaluate_on_test": False,
        "trainer.callbacks": [{"type": "benchmark_phase_clock"}],
        **task.get("overrides", {}),
    }
    if variant == "stock":
        overrides.update(task["stock"])
    if task.get("fill_cache"):
        subprocess.run(
            [ALLENNLP, "elmo-cache", task["config"], "--splits", "train", "validation"],
            cwd=ROOT,
            env=environment,
            check=True,
            capture_output=True,
        )
    run_dir = work / "run"
    shutil.rmtree(run_dir, ignore_errors=True)
    result = subprocess.run(
        [
            ALLENNLP,
            "train",
            task["config"],
            "-s",
            str(run_dir),
            "-o",
            json.dumps(overrides),
            "--include-package",
            "scripts.benchmark_training",
        ],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise RuntimeError(f"{task['config']} ({variant}, {setting}) failed:\n{result.stderr[-3000:]}")
    records = [json.loads(line) for line in (run_dir / "phase_clock.jsonl").read_text().splitlines()]
    shutil.rmtree(run_dir)
    return records


def summary(values: List[float]) -> Dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "n": len(values)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks", nargs="+", default=["ner", "ner_elmo", "srl", "sst", "snli", "squad", "coref"])
    parser.add_argument("--settings", nargs="+", default=["1", "2", "2x1"], help="threads, or processes x threads")
    parser.add_argument("--epochs", type=int, default=4, help="epochs per run; the first is not counted")
    parser.add_argument("--output", help="write the figures as JSON here too")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")

    shared = Path(os.environ.get("SHARED_DATA_DIR", ROOT.parent / "shared" / "data")).resolve()
    specs = tasks(shared)
    results: Dict[str, Any] = {"arguments": vars(args), "load_average_at_start": os.getloadavg()[0], "tasks": {}}
    with tempfile.TemporaryDirectory() as directory:
        for name in args.tasks:
            task, figures = specs[name], {}
            variants = ["stock", "suite"] if task["stock"] else ["suite"]
            for setting in args.settings:
                for variant in variants:
                    records = train(task, variant, setting, args.epochs, Path(directory) / name)[1:]
                    figures[f"{variant}, {describe(setting)}"] = {
                        phase: summary([record[phase] for record in records])
                        for phase in ("training_wall", "training_cpu", "validation_wall", "validation_cpu")
                    }
                    logger.info(
                        "%s %s %s: training %.1f s, validation %.1f s (medians)",
                        name,
                        variant,
                        describe(setting),
                        figures[list(figures)[-1]]["training_wall"]["median"],
                        figures[list(figures)[-1]]["validation_wall"]["median"],
                    )
            results["tasks"][name] = {
                "config": task["config"],
                "train_limit": task["train_limit"],
                "eval_limit": task["eval_limit"],
                "figures": figures,
            }
    results["load_average_at_end"] = os.getloadavg()[0]
    print(report(results))
    if args.output:
        Path(args.output).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


def describe(setting: str) -> str:
    processes, _, threads = setting.rpartition("x")
    threads_text = f"{threads} thread{'s' if threads != '1' else ''}"
    return f"{processes} processes x {threads_text}" if processes else threads_text


def report(results: Dict[str, Any]) -> str:
    lines = [
        "| task | data | variant, threads | training epoch, s wall (min–max) | CPU s | validation, s wall | CPU s |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, task in results["tasks"].items():
        data = f"{task['train_limit'] or 'all'} train / {task['eval_limit'] or 'all'} dev"
        for setting, phases in task["figures"].items():
            wall, cpu = phases["training_wall"], phases["training_cpu"]
            validation, validation_cpu = phases["validation_wall"], phases["validation_cpu"]
            lines.append(
                f"| {name} | {data} | {setting} | {wall['median']:.1f} ({wall['min']:.1f}–{wall['max']:.1f}) | "
                f"{cpu['median']:.1f} | {validation['median']:.1f} ({validation['min']:.1f}–{validation['max']:.1f}) | "
                f"{validation_cpu['median']:.1f} |"
            )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
