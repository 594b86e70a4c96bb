"""
Benchmark of Fast ELMo against AllenNLP's own, on the original ELMo architecture
(2x4096_512_2048cnn_2xhighway) with random weights in the original layout (timing does not
depend on the values; tasks/bilm/weight_file.py writes them).

1. Forward speed, in one process: AllenNLP's `Elmo` and our `PaperElmo` (lstm_state `carried`,
   which computes what `Elmo` computes, and `zero`) on the same batches of real sentences
   (CoNLL-2003 dev when present), passes interleaved and rotated, median (min, max) tokens per
   second of wall time and per second of the process's CPU time (on a shared machine the wall
   time depends on the other jobs; the CPU time much less); the outputs compared (carried: batch
   after batch with `Elmo`; zero: with `Elmo` reset to its zero state before each batch); each
   one's peak memory (the peak RSS, VmHWM, of a fresh process that loads it and runs the batches
   with the longest sentences).
2. The activation cache: bytes on disk per token (float16 and float32), and how fast
   `allennlp elmo-cache`'s fill runs (batches sorted by length).
3. NER training epochs (`allennlp train configs/ner_elmo.jsonnet`, a subset of CoNLL-2003 sized to
   the machine) with (a) AllenNLP's `elmo_token_embedder`, (b) `fast_elmo` without cache,
   (c) `fast_elmo` after `allennlp elmo-cache` and (d) `fast_elmo` starting with an empty cache,
   and the 75-epoch run extrapolated from them (epoch wall and CPU seconds from a trainer
   callback defined here, loaded into `allennlp train` with `--include-package`).

    nice -n 10 python scripts/benchmark_elmo.py --output runs/benchmark_elmo.json

Data: --train-file / --dev-file, by default CoNLL-2003 eng.train / eng.testa under SHARED_DATA_DIR
(../shared/data), else the bundled NER sample. Prints a Markdown report and writes the figures as JSON.
"""

import argparse
import json
import logging
import multiprocessing
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List

import torch
from allennlp.modules.elmo import Elmo, batch_to_ids
from allennlp.training.callbacks import TrainerCallback

from tasks.bilm.weight_file import random_weights, write_elmo_files
from tasks.elmo import FrozenBilm, PaperElmo
from tasks.elmo.fill import fill

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("SHARED_DATA_DIR", ROOT.parent / "shared" / "data"))
ORIGINAL_OPTIONS = SHARED_DATA / "elmo_reference" / "elmo_2x4096_512_2048cnn_2xhighway_options.json"
# The original architecture, as in its published options.json (used when the shared copy is absent).
ORIGINAL_ARCHITECTURE = {
    "lstm": {
        "use_skip_connections": True,
        "projection_dim": 512,
        "cell_clip": 3,
        "proj_clip": 3,
        "dim": 4096,
        "n_layers": 2,
    },
    "char_cnn": {
        "activation": "relu",
        "filters": [[1, 32], [2, 32], [3, 64], [4, 128], [5, 256], [6, 512], [7, 1024]],
        "n_highway": 2,
        "embedding": {"dim": 16},
        "n_characters": 262,
        "max_characters_per_token": 50,
    },
}
ALLENNLP = str(Path(sys.executable).parent / "allennlp")
IMPLEMENTATIONS = ("allennlp", "ours_carried", "ours_zero")

logger = logging.getLogger("benchmark_elmo")


def default_file(name: str, bundled: str) -> Path:
    shared = SHARED_DATA / "conll2003" / name
    return shared if shared.is_file() else ROOT / "bundled" / "data" / "ner" / bundled


def conll_blocks(path: Path) -> List[List[str]]:
    """The sentences of a CoNLL-2003 file as their lines, `-DOCSTART-` blocks left out."""
    blocks, block = [], []
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if line.strip():
            block.append(line)
        elif block:
            if not block[0].startswith("-DOCSTART-"):
                blocks.append(block)
            block = []
    return blocks


def write_conll_subset(blocks: List[List[str]], path: Path) -> None:
    path.write_text("".join("\n".join(block) + "\n\n" for block in blocks), encoding="utf-8")


def write_random_original_bilm(directory: Path, options_path: Path) -> Dict[str, str]:
    options = json.loads(options_path.read_text()) if options_path.is_file() else ORIGINAL_ARCHITECTURE
    files = {"options_file": str(directory / "options.json"), "weight_file": str(directory / "weights.hdf5")}
    # A small scale keeps the random LSTM out of saturation, as trained weights are.
    write_elmo_files(options, random_weights(options, seed=0, scale=0.05), files["options_file"], files["weight_file"])
    return files


def build(implementation: str, files: Dict[str, str]) -> torch.nn.Module:
    if implementation == "allennlp":
        return Elmo(files["options_file"], files["weight_file"], 1, dropout=0.0).eval()
    lstm_state = implementation.split("_")[1]
    return PaperElmo(files["options_file"], files["weight_file"], dropout=0.0, lstm_state=lstm_state).eval()


def run_batches(elmo: torch.nn.Module, batches: List[torch.Tensor]) -> List[torch.Tensor]:
    with torch.no_grad():
        return [elmo(batch)["elmo_representations"][0] for batch in batches]


def forward_benchmark(files, sentences, batch_sizes, repeats, order) -> Dict:
    models = {name: build(name, files) for name in IMPLEMENTATIONS}
    tokens = sum(len(sentence) for sentence in sentences)
    results = {}
    for batch_size in batch_sizes:
        ordered = sorted(sentences, key=len) if order == "sorted" else sentences
        batches = [batch_to_ids(ordered[start : start + batch_size]) for start in range(0, len(ordered), batch_size)]
        speeds = {clock: {name: [] for name in IMPLEMENTATIONS} for clock in ("wall", "cpu")}
        loads, carried_differences = [], []
        for repeat in range(repeats):
            rotation = IMPLEMENTATIONS[repeat % 3 :] + IMPLEMENTATIONS[: repeat % 3]
            outputs = {}
            for name in rotation:
                loads.append(os.getloadavg()[0])
                wall, cpu = time.perf_counter(), time.process_time()
                outputs[name] = run_batches(models[name], batches)
                speeds["wall"][name].append(tokens / (time.perf_counter() - wall))
                speeds["cpu"][name].append(tokens / (time.process_time() - cpu))
                logger.info(
                    "batch %d, pass %d, %s: %.1f tokens/s, %.1f tokens/CPU-s",
                    batch_size,
                    repeat + 1,
                    name,
                    speeds["wall"][name][-1],
                    speeds["cpu"][name][-1],
                )
            # allennlp and ours_carried have read the same batches in the same order since they were built.
            carried_differences.append(
                max(
                    float((ours - theirs).abs().max())
                    for ours, theirs in zip(outputs["ours_carried"], outputs["allennlp"])
                )
            )
        results[str(batch_size)] = {
            clock: {
                "tokens_per_second": {name: summary(values) for name, values in by_name.items()},
                "speed_up": {
                    name: summary([ours / theirs for ours, theirs in zip(by_name[name], by_name["allennlp"])])
                    for name in IMPLEMENTATIONS[1:]
                },
            }
            for clock, by_name in speeds.items()
        }
        results[str(batch_size)].update(
            max_abs_difference_carried_vs_allennlp=max(carried_differences), load_average=summary(loads)
        )
    results["max_abs_difference_zero_vs_allennlp_reset"] = zero_state_difference(
        models, sentences[: 2 * batch_sizes[0]], batch_sizes[0]
    )
    return results


def zero_state_difference(models, sentences, batch_size) -> float:
    """Ours with zero states against AllenNLP's `Elmo` reset to its zero state before each batch."""
    allennlp_elmo, ours = models["allennlp"], models["ours_zero"]
    difference = 0.0
    for start in range(0, len(sentences), batch_size):
        batch = batch_to_ids(sentences[start : start + batch_size])
        allennlp_elmo._elmo_lstm._elmo_lstm.reset_states()
        (theirs,), (mine,) = run_batches(allennlp_elmo, [batch]), run_batches(ours, [batch])
        difference = max(difference, float((mine - theirs).abs().max()))
    return difference


def summary(values: List[float]) -> Dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "runs": len(values)}


def _peak_memory_child(implementation, files, batches, threads, queue) -> None:
    torch.set_num_threads(threads)
    after_import = _current_rss_kb()
    elmo = build(implementation, files)
    after_load = _current_rss_kb()
    run_batches(elmo, batches)
    queue.put(
        {"peak_mb": _peak_rss_kb() / 1024, "after_load_mb": after_load / 1024, "after_imports_mb": after_import / 1024}
    )


def _current_rss_kb() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def _peak_rss_kb() -> int:
    """
    This process's peak RSS (VmHWM). Not `ru_maxrss`: Linux keeps that across execve, so a spawned
    child would report the parent's RSS at the fork whenever it is the larger.
    """
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise RuntimeError("no VmHWM in /proc/self/status: peak memory is measured on Linux only")


def peak_memory(files, sentences, batch_size, threads) -> Dict:
    """
    Each implementation in a fresh process: RSS after loading, and the peak over the two batches of
    the longest sentences.
    """
    longest = sorted(sentences, key=len)[-2 * batch_size :]
    batches = [batch_to_ids(longest[:batch_size]), batch_to_ids(longest[batch_size:])]
    context = multiprocessing.get_context("spawn")
    results = {}
    for implementation in IMPLEMENTATIONS:
        queue = context.Queue()
        child = context.Process(target=_peak_memory_child, args=(implementation, files, batches, threads, queue))
        child.start()
        results[implementation] = queue.get()
        child.join()
    return results


def cache_benchmark(files, sentences, batch_size, directory: Path) -> Dict:
    from allennlp.data.token_indexers.elmo_indexer import ELMoCharacterMapper

    from tasks.elmo.cache import sentence_key

    mapper = ELMoCharacterMapper()
    by_key = {}
    for sentence in sentences:
        ids = [mapper.convert_word_to_char_ids(token) for token in sentence]
        by_key[sentence_key(torch.tensor(ids))] = ids
    results = {}
    for dtype in ("float16", "float32"):
        bilm = FrozenBilm(files["options_file"], files["weight_file"], "zero", str(directory / dtype), dtype)
        report = fill(bilm, by_key, batch_size, description=f"fill {dtype}")
        on_disk = sum(path.stat().st_size for path in bilm.cache.path.iterdir())
        results[dtype] = {
            "bytes_per_token": on_disk / report.tokens,
            "activations_bytes_per_token": (bilm.cache.path / "activations.bin").stat().st_size / report.tokens,
            "fill_tokens_per_second": report.computed_tokens / report.seconds,
            "sentences": report.sentences,
            "tokens": report.tokens,
        }
    return results


@TrainerCallback.register("benchmark_epoch_clock")
class EpochClock(TrainerCallback):
    """
    Appends each epoch's wall and CPU seconds (the training process's, all threads) to
    `epoch_clock.jsonl` in the serialization directory: from the previous epoch's end (or the
    start of training) to this one's, after validation.
    """

    def on_start(self, trainer, is_primary: bool = True, **kwargs) -> None:
        self._wall, self._cpu = time.perf_counter(), time.process_time()

    def on_epoch(self, trainer, metrics, epoch: int, is_primary: bool = True, **kwargs) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        with open(Path(self.serialization_dir) / "epoch_clock.jsonl", "a") as clock:
            clock.write(json.dumps({"epoch": epoch, "wall": wall - self._wall, "cpu": cpu - self._cpu}) + "\n")
        self._wall, self._cpu = wall, cpu


def ner_benchmark(files, train_blocks, dev_blocks, epochs, threads, work: Path) -> Dict:
    """`allennlp train` on the NER config, its ELMo replaced as each setting needs."""
    from allennlp.common import Params

    write_conll_subset(train_blocks, work / "train.conll")
    write_conll_subset(dev_blocks, work / "dev.conll")
    environment = dict(
        os.environ,
        NER_TRAIN_DATA=str(work / "train.conll"),
        NER_DEV_DATA=str(work / "dev.conll"),
        NER_TEST_DATA=str(work / "dev.conll"),
        ELMO_OPTIONS_FILE=files["options_file"],
        ELMO_WEIGHT_FILE=files["weight_file"],
        ELMO_CACHE_DIR=str(work / "cache"),
        NER_WORD_VECTORS="",
        TRAIN_FRACTION="1.0",
        TRAIN_LIMIT="",
        OMP_NUM_THREADS=str(threads),
        MKL_NUM_THREADS=str(threads),
    )
    os.environ.update(environment)
    base = Params.from_file(str(ROOT / "configs" / "ner_elmo.jsonnet")).as_dict(quiet=True)
    base["evaluate_on_test"] = False
    base["datasets_for_vocab_creation"] = ["train", "validation"]  # a small training subset may lack a tag
    base["trainer"]["callbacks"] = [{"type": "benchmark_epoch_clock"}]
    fast = base["model"]["text_field_embedder"]["token_embedders"]["elmo"]
    stock = {
        "type": "elmo_token_embedder",
        "options_file": fast["options_file"],
        "weight_file": fast["weight_file"],
        "do_layer_norm": fast["do_layer_norm"],
        "dropout": fast["dropout"],
        "requires_grad": False,
    }

    def config(name, elmo, num_epochs):
        config = json.loads(json.dumps(base))
        config["model"]["text_field_embedder"]["token_embedders"]["elmo"] = elmo
        config["trainer"]["num_epochs"] = num_epochs
        path = work / f"{name}.json"
        path.write_text(json.dumps(config, indent=2))
        return str(path)

    def timed(name, *arguments) -> Dict:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        result = subprocess.run([ALLENNLP, *arguments], cwd=ROOT, env=environment, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        (work.parent / f"benchmark_elmo_{name}.log").write_text(result.stderr)
        if result.returncode != 0:
            raise RuntimeError(
                f"{name} failed (log: {work.parent / f'benchmark_elmo_{name}.log'}):\n{result.stderr[-3000:]}"
            )
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        logger.info("%s: %.0f s, %.0f CPU-s in all", name, seconds, cpu)
        return {"process_seconds": seconds, "process_cpu_seconds": cpu, "load_average": os.getloadavg()[0]}

    def train(name, elmo, num_epochs):
        run = timed(
            name,
            "train",
            config(name, elmo, num_epochs),
            "-s",
            str(work / name),
            "--include-package",
            "scripts.benchmark_elmo",
        )
        epochs_seen = [json.loads(line) for line in (work / name / "epoch_clock.jsonl").read_text().splitlines()]
        run.update(
            epoch_seconds=[epoch["wall"] for epoch in epochs_seen],
            epoch_cpu_seconds=[epoch["cpu"] for epoch in epochs_seen],
        )
        logger.info(
            "%s: epochs %s s, %s CPU-s",
            name,
            [round(e["wall"], 1) for e in epochs_seen],
            [round(e["cpu"], 1) for e in epochs_seen],
        )
        shutil.rmtree(work / name)  # checkpoints hold the biLM's weights: hundreds of MB each
        return run

    results = {
        "train_sentences": len(train_blocks),
        "dev_sentences": len(dev_blocks),
        "train_tokens": sum(map(len, train_blocks)),
        "dev_tokens": sum(map(len, dev_blocks)),
    }
    results["allennlp_elmo"] = train("allennlp_elmo", stock, epochs)
    results["fast_elmo_no_cache"] = train("fast_elmo_no_cache", dict(fast, cache_directory=None), epochs)
    results["fast_elmo_empty_cache"] = train(
        "fast_elmo_empty_cache", dict(fast, cache_directory=str(work / "cache_cold")), epochs
    )
    cached = dict(fast, cache_directory=str(work / "cache"))
    results["elmo_cache_fill"] = timed(
        "elmo_cache_fill", "elmo-cache", config("fast_elmo_cached", cached, 1), "--splits", "train", "validation"
    )
    results["fast_elmo_cached"] = train("fast_elmo_cached", cached, epochs + 1)
    return results


def extrapolate(ner: Dict, clock: str, total_epochs: int = 75) -> Dict:
    """
    The whole run from the measured epochs (`clock`: "epoch_seconds" or "epoch_cpu_seconds"):
    AllenNLP's ELMo runs the biLM every epoch; fast_elmo's cache runs it once, in the first
    epoch or in `allennlp elmo-cache` before training.
    """
    stock_epoch = statistics.median(ner["allennlp_elmo"][clock])
    cached_epoch = statistics.median(ner["fast_elmo_cached"][clock])
    first_epoch = ner["fast_elmo_empty_cache"][clock][0]
    fill_process = ner["elmo_cache_fill"]["process_seconds" if clock == "epoch_seconds" else "process_cpu_seconds"]
    stock_run = total_epochs * stock_epoch
    filled_in_training = first_epoch + (total_epochs - 1) * cached_epoch
    filled_before = fill_process + total_epochs * cached_epoch
    return {
        "epochs": total_epochs,
        "allennlp": stock_run,
        "cache_filled_by_first_epoch": filled_in_training,
        "cache_filled_by_elmo_cache": filled_before,
        "speed_up_no_cache_epoch": stock_epoch / statistics.median(ner["fast_elmo_no_cache"][clock]),
        "speed_up_first_epoch_filling_the_cache": stock_epoch / first_epoch,
        "speed_up_cached_epoch": stock_epoch / cached_epoch,
        "speed_up_whole_run": stock_run / filled_in_training,
        "speed_up_whole_run_elmo_cache_first": stock_run / filled_before,
    }


def _range(values: Dict, digits: int = 0, unit: str = "") -> str:
    return f"{values['median']:.{digits}f}{unit} ({values['min']:.{digits}f}–{values['max']:.{digits}f})"


def report(results: Dict) -> str:
    lines = [
        f"machine: {results['machine']}",
        f"command: {results['command']}",
        f"{results['sentences']} sentences, {results['tokens']} tokens of {results['dev_file']}, batches in "
        f"{results['order']} order, "
        f"{results['repeats']} passes each, median (min–max)",
        "",
    ]
    forward = results["forward"]
    lines += [
        "| batch | clock | AllenNLP `Elmo` tok/s | ours, carried | ours, zero | speed-up carried | speed-up zero | "
        "load avg |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for batch_size in results["batch_sizes"]:
        row = forward[str(batch_size)]
        for clock in ("wall", "cpu"):
            speeds, ups = row[clock]["tokens_per_second"], row[clock]["speed_up"]
            lines.append(
                f"| {batch_size} | {clock} | {_range(speeds['allennlp'])} | {_range(speeds['ours_carried'])} | "
                f"{_range(speeds['ours_zero'])} "
                f"| {_range(ups['ours_carried'], 2, '×')} | {_range(ups['ours_zero'], 2, '×')} | "
                f"{_range(row['load_average'], 1)} |"
            )
    lines.append("")
    for batch_size in results["batch_sizes"]:
        lines.append(
            f"batch {batch_size}: max |ours carried − AllenNLP| = "
            f"{forward[str(batch_size)]['max_abs_difference_carried_vs_allennlp']:.1e}"
        )
    lines.append(
        f"max |ours zero − AllenNLP reset to zero| = {forward['max_abs_difference_zero_vs_allennlp_reset']:.1e}"
    )
    if "peak_memory" in results:
        lines += ["", "| RSS, MB | after imports | after loading the biLM | peak |", "|---|---|---|---|"]
        for name, memory in results["peak_memory"].items():
            lines.append(
                f"| {name} | {memory['after_imports_mb']:.0f} | {memory['after_load_mb']:.0f} | "
                f"{memory['peak_mb']:.0f} |"
            )
    if "cache" in results:
        lines += [""] + [
            f"cache {dtype}: {c['bytes_per_token']:.0f} bytes per token on disk "
            f"({c['activations_bytes_per_token']:.0f} of them activations); "
            f"filled at {c['fill_tokens_per_second']:.0f} tokens/s"
            for dtype, c in results["cache"].items()
        ]
    if "ner" in results:
        ner = results["ner"]
        lines += [
            "",
            f"NER: {ner['train_sentences']} training sentences ({ner['train_tokens']} tokens), "
            f"{ner['dev_sentences']} dev ({ner['dev_tokens']} tokens)",
            "| setting | epoch wall s | epoch CPU s | process wall s | process CPU s | load avg |",
            "|---|---|---|---|---|---|",
        ]
        for name in (
            "allennlp_elmo",
            "fast_elmo_no_cache",
            "fast_elmo_empty_cache",
            "elmo_cache_fill",
            "fast_elmo_cached",
        ):
            run = ner[name]
            epochs = lambda key: ", ".join(f"{s:.1f}" for s in run.get(key, [])) or "—"  # noqa: E731
            lines.append(
                f"| {name} | {epochs('epoch_seconds')} | {epochs('epoch_cpu_seconds')} | {run['process_seconds']:.0f} "
                f"| {run['process_cpu_seconds']:.0f} | {run['load_average']:.1f} |"
            )
        wall, cpu = results["extrapolation"]["wall"], results["extrapolation"]["cpu"]
        lines += [
            "",
            "| 75 epochs | wall s | CPU s | speed-up (wall) | speed-up (CPU) |",
            "|---|---|---|---|---|",
            f"| AllenNLP's ELMo, 75 × epoch | {wall['allennlp']:.0f} | {cpu['allennlp']:.0f} | 1 | 1 |",
        ]
        for label, key, speed_up in (
            ("fast_elmo: first epoch fills the cache, 74 cached", "cache_filled_by_first_epoch", "speed_up_whole_run"),
            (
                "fast_elmo: elmo-cache, then 75 cached",
                "cache_filled_by_elmo_cache",
                "speed_up_whole_run_elmo_cache_first",
            ),
        ):
            lines.append(
                f"| {label} | {wall[key]:.0f} | {cpu[key]:.0f} | {wall[speed_up]:.2f}× | {cpu[speed_up]:.2f}× |"
            )
        lines += ["", "| one epoch, speed-up over AllenNLP's | wall | CPU |", "|---|---|---|"]
        for label, key in (
            ("fast_elmo without cache", "speed_up_no_cache_epoch"),
            ("fast_elmo, first epoch filling the cache", "speed_up_first_epoch_filling_the_cache"),
            ("fast_elmo, cached", "speed_up_cached_epoch"),
        ):
            lines.append(f"| {label} | {wall[key]:.2f}× | {cpu[key]:.2f}× |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--dev-file",
        type=Path,
        default=default_file("eng.testa", "dev.txt"),
        help="sentences for the forward benchmark (CoNLL format)",
    )
    parser.add_argument(
        "--train-file",
        type=Path,
        default=default_file("eng.train", "train.txt"),
        help="NER training sentences (CoNLL format)",
    )
    parser.add_argument(
        "--options-file", type=Path, default=ORIGINAL_OPTIONS, help="architecture to time (default: the original ELMo)"
    )
    parser.add_argument("--sentences", type=int, default=200, help="dev sentences per forward pass (the first ones)")
    parser.add_argument("--batch-sizes", type=int, nargs="+", default=[32, 64])
    parser.add_argument(
        "--order",
        choices=["file", "sorted"],
        default="file",
        help="batches of consecutive sentences, or sorted by length",
    )
    parser.add_argument("--repeats", type=int, default=3, help="passes of each implementation per batch size")
    parser.add_argument("--threads", type=int, default=torch.get_num_threads(), help="torch threads (default: torch's)")
    parser.add_argument("--ner-train-sentences", type=int, default=300)
    parser.add_argument("--ner-dev-sentences", type=int, default=100)
    parser.add_argument("--ner-epochs", type=int, default=2)
    parser.add_argument("--skip", nargs="*", default=[], choices=["memory", "cache", "ner"], help="parts to leave out")
    parser.add_argument("--output", type=Path, help="write the figures as JSON")
    parser.add_argument("--report", type=Path, help="only print the report of figures written before with --output")
    args = parser.parse_args()
    if args.report:
        print(report(json.loads(args.report.read_text())))
        return
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    torch.set_num_threads(args.threads)

    dev_blocks = conll_blocks(args.dev_file)
    sentences = [[line.split()[0] for line in block] for block in dev_blocks[: args.sentences]]
    results = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, torch {torch.__version__}, {args.threads} threads, "
        f"load average at start {os.getloadavg()[0]:.1f}",
        "command": " ".join(sys.argv),
        "dev_file": str(args.dev_file),
        "sentences": len(sentences),
        "tokens": sum(map(len, sentences)),
        "order": args.order,
        "batch_sizes": args.batch_sizes,
        "repeats": args.repeats,
    }
    with tempfile.TemporaryDirectory(prefix="benchmark_elmo_") as temporary:
        work = Path(temporary)
        files = write_random_original_bilm(work, args.options_file)
        results["forward"] = forward_benchmark(files, sentences, args.batch_sizes, args.repeats, args.order)
        if "memory" not in args.skip:
            results["peak_memory"] = peak_memory(files, sentences, max(args.batch_sizes), args.threads)
        if "cache" not in args.skip:
            results["cache"] = cache_benchmark(files, sentences, 64, work / "cache_benchmark")
        if "ner" not in args.skip:
            train_blocks = conll_blocks(args.train_file)[: args.ner_train_sentences]
            results["ner"] = ner_benchmark(
                files, train_blocks, dev_blocks[: args.ner_dev_sentences], args.ner_epochs, args.threads, work
            )
            results["extrapolation"] = {
                clock: extrapolate(results["ner"], key)
                for clock, key in (("wall", "epoch_seconds"), ("cpu", "epoch_cpu_seconds"))
            }
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps(results, indent=2) + "\n")
    print(report(results))


if __name__ == "__main__":
    main()
