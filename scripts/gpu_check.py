"""
A check of the suite on a GPU, in minutes, writing one Markdown table (issue 41): run it whenever a
GPU is at hand, and commit the table with the machine named.

1. Each task's ELMo config (`configs/<task>_elmo.jsonnet`) trained for `--updates` updates on the
   real data, as the plan's run `<task>-elmo-seed1` reads it (default plans/cpu.jsonnet, from
   SHARED_DATA_DIR), on the GPU: wall time, updates per second, the last training loss, the GPU's
   peak memory, and whether it ran to the end.
2. Fast ELMo's forward (`PaperElmo`, the state AllenNLP carries) against AllenNLP's own `Elmo`, on the
   same batches of sentences and the bundled biLM, on the GPU: tokens per second of each, and the
   largest difference of their outputs.
3. AllenNLP's distributed trainer over every GPU there is (NER's ELMo config, DEVICES=0,1,...), when
   there are two or more.

    python scripts/gpu_check.py --output docs/gpu_check.md             # on a machine with a GPU
    python scripts/gpu_check.py --plan bundled --output docs/gpu_check.md   # where the real data is not at hand
    python scripts/gpu_check.py --devices cpu --updates 3 --tasks ner --plan plans/smoke.jsonnet   # the check, on a CPU

Each training runs `allennlp train` as a user does (in a temporary folder), so the table says what a
user's command does on that machine.
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Dict, List, Sequence

import torch

ROOT = Path(__file__).resolve().parents[1]
TASKS = ("ner", "sst", "snli", "squad", "srl", "coref")
BUNDLED = "bundled"


def plan_run(plan_file: str, name: str):
    """The plan's run `name`; with plan 'bundled', the config alone, on the bundled samples (no data needed)."""
    from tasks.reproduce.plan import load_plan

    if plan_file == BUNDLED:
        task = name.split("-")[0]
        return SimpleNamespace(config=f"configs/{task}_elmo.jsonnet", overrides={}, environment={})

    runs = {run.name: run for run in load_plan(plan_file).runs}
    if name not in runs:
        raise SystemExit(f"{plan_file} has no run {name}: give a plan with each task's ELMo seed-1 run (--plan)")
    return runs[name]


def train_check(task: str, plan_file: str, updates: int, devices: str) -> Dict[str, object]:
    """`allennlp train` of the task's ELMo config for `updates` updates on `devices`: what it cost and gave."""
    run = plan_run(plan_file, f"{task}-elmo-seed1")
    overrides = {
        **run.overrides,
        "trainer.num_epochs": 1,
        "data_loader.batches_per_epoch": updates,
        # dev read whole: without its own block AllenNLP sizes its loader by batches_per_epoch too
        "validation_data_loader": {"batch_sampler": {"type": "bucket", "batch_size": 32}},
    }
    environment = {**os.environ, **run.environment, "DEVICES": devices, "EVAL_LIMIT": "200"}
    with tempfile.TemporaryDirectory() as directory:
        started = time.monotonic()
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "allennlp",
                "train",
                run.config,
                "-s",
                f"{directory}/run",
                "-o",
                json.dumps(overrides),
            ],
            cwd=ROOT,
            env=environment,
            capture_output=True,
            text=True,
        )
        seconds = time.monotonic() - started
        metrics_file = Path(directory) / "run" / "metrics.json"
        metrics = json.loads(metrics_file.read_text()) if metrics_file.is_file() else {}
    memory = [value for key, value in metrics.items() if key.startswith("peak_gpu_") and key.endswith("_memory_MB")]
    return {
        "check": f"{task}: {updates} updates of {run.config}"
        + (" on its bundled sample" if plan_file == BUNDLED else ""),
        "ok": result.returncode == 0,
        "seconds": round(seconds, 1),
        "updates_per_second": round(updates / seconds, 2),
        "training_loss": metrics.get("training_loss"),
        "gpu_memory_mb": max(memory) if memory else None,
        "error": "" if result.returncode == 0 else result.stderr.strip().splitlines()[-1][:300],
    }


def elmo_check(device: str, sentences: int = 256, batch_size: int = 32) -> Dict[str, object]:
    """Fast ELMo against AllenNLP's `Elmo` on `device`: tokens per second each, and their largest difference."""
    from allennlp.modules.elmo import Elmo, batch_to_ids

    from tasks.elmo import PaperElmo
    from tasks.environment import default_value

    options, weights = default_value("ELMO_OPTIONS_FILE"), default_value("ELMO_WEIGHT_FILE")
    blocks = (ROOT / "bundled" / "data" / "ner" / "dev.txt").read_text(encoding="utf-8").split("\n\n")
    batches_of_words = [
        words
        for words in ([line.split()[0] for line in block.splitlines() if line.strip()] for block in blocks)
        if words and words[0] != "-DOCSTART-"
    ][:sentences]
    batches = [batches_of_words[start : start + batch_size] for start in range(0, len(batches_of_words), batch_size)]
    stock = Elmo(options, weights, 1, dropout=0.0).to(device).eval()
    fast = PaperElmo(options, weights, 1, dropout=0.0, lstm_state="carried").to(device).eval()
    speeds, largest = {"stock": [], "fast": []}, 0.0
    with torch.no_grad():
        for batch in batches:
            ids = batch_to_ids(batch).to(device)
            tokens = sum(len(sentence) for sentence in batch)
            outputs = {}
            for name, elmo in (("stock", stock), ("fast", fast)):
                if device.startswith("cuda"):
                    torch.cuda.synchronize()
                started = time.perf_counter()
                outputs[name] = elmo(ids)["elmo_representations"][0]
                if device.startswith("cuda"):
                    torch.cuda.synchronize()
                speeds[name].append(tokens / (time.perf_counter() - started))
            largest = max(largest, (outputs["stock"] - outputs["fast"]).abs().max().item())
    return {
        "check": f"Fast ELMo against AllenNLP's Elmo, {len(batches_of_words)} sentences in batches of {batch_size}",
        "ok": largest < 1e-3,
        "tokens_per_second": {name: round(statistics.median(values)) for name, values in speeds.items()},
        "largest_difference": largest,
    }


def table(machine: Dict[str, object], rows: Sequence[Dict[str, object]]) -> str:
    lines = [
        f"Machine: {machine['gpus'] or 'no GPU'}; torch {machine['torch']} (CUDA {machine['cuda']}), "
        f"Python {machine['python']}; `{machine['command']}`, {machine['date']}.",
        "",
        "| check | ok | figures |",
        "|---|---|---|",
    ]
    for row in rows:
        figures = ", ".join(f"{key}: {value}" for key, value in row.items() if key not in ("check", "ok") and value)
        lines.append(f"| {row['check']} | {'yes' if row['ok'] else 'NO'} | {figures} |")
    return "\n".join(lines) + "\n"


def main(argv: List[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--devices", default="0", help="DEVICES for the trainings (default 0: the first GPU)")
    parser.add_argument("--updates", type=int, default=200, help="updates of each task's training (default 200)")
    parser.add_argument("--tasks", nargs="+", default=list(TASKS), choices=TASKS)
    parser.add_argument(
        "--plan",
        default="plans/cpu.jsonnet",
        help=f"whose <task>-elmo-seed1 runs give the data; '{BUNDLED}': each config on its bundled sample",
    )
    parser.add_argument("--output", type=Path, help="also write the table here")
    arguments = parser.parse_args(argv)
    from tasks.environment import apply_defaults

    apply_defaults()
    device = "cpu" if arguments.devices.startswith("cpu") else f"cuda:{arguments.devices.split(',')[0]}"
    rows = [train_check(task, arguments.plan, arguments.updates, arguments.devices) for task in arguments.tasks]
    rows.append(elmo_check(device))
    gpus = torch.cuda.device_count()
    if gpus > 1:
        rows.append(train_check("ner", arguments.plan, arguments.updates, ",".join(str(i) for i in range(gpus))))
        rows[-1]["check"] = f"distributed over {gpus} GPUs: " + rows[-1]["check"]
    else:
        rows.append({"check": "distributed trainer", "ok": True, "note": f"not run: {gpus} GPU here"})
    machine = {
        "gpus": ", ".join(torch.cuda.get_device_name(i) for i in range(gpus)),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "python": platform.python_version(),
        "command": "python scripts/gpu_check.py " + " ".join(argv),
        "date": time.strftime("%Y-%m-%d"),
    }
    text = table(machine, rows)
    print(text, end="")
    if arguments.output:
        arguments.output.write_text(f"# GPU check\n\n{text}", encoding="utf-8")
    if not all(row["ok"] for row in rows):
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1:])
