"""
How closely `FrozenBilm(lstm_state="carried")` follows AllenNLP's stateful `_ElmoBiLm` when both
read the same batches in the same order, and how much of any difference is the arithmetic's.

With the state carried from batch to batch, a rounding difference in one batch enters every later
batch of the same row, and an LSTM with large weights amplifies it from batch to batch (a chaotic
recurrence). So three comparisons are made:

- free-running, in float32 (what runs) and in float64 (rounding about 1e-16);
- AllenNLP in float32 against AllenNLP in float64: how far rounding alone takes AllenNLP from
  itself, the floor any other implementation is measured against;
- in step: before each batch ours takes AllenNLP's carried state, so each batch's difference is
  that batch's own arithmetic and nothing accumulated.

    SHARED_DATA_DIR=../shared/data python scripts/compare_carried_state.py \
        --options ../shared/data/elmo_reference/elmo_2x4096_512_2048cnn_2xhighway_options.json \
        --weights normal --scale 0.05 --batch-size 32 --batches 20

Sentences: CoNLL-2003 eng.testa in file order (mixed lengths), from SHARED_DATA_DIR, else the
bundled NER sample's dev file; a last, smaller batch checks the rows a short batch leaves alone.
"""

import argparse
import json
import os
import tempfile
from pathlib import Path
from typing import Dict, List

import numpy
import torch
from allennlp.modules.elmo import _ElmoBiLm, batch_to_ids

import tasks  # noqa: F401  (the torch 2.x fixes, before AllenNLP's modules are built)
from tasks.bilm.weight_file import random_weights, weight_layout, write_elmo_files
from tasks.elmo import FrozenBilm

ROOT = Path(__file__).resolve().parent.parent


def sentences_of(path: Path) -> List[List[str]]:
    """The words of each sentence of a CoNLL-2003 file, `-DOCSTART-` left out."""
    sentences, words = [], []
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if line.strip():
            words.append(line.split()[0])
        elif words:
            if words[0] != "-DOCSTART-":
                sentences.append(words)
            words = []
    return sentences


def weights_for(options: Dict, kind: str, scale: float, seed: int) -> Dict[str, numpy.ndarray]:
    if kind == "uniform":
        return random_weights(options, seed=seed, scale=scale)
    generator = numpy.random.default_rng(seed)
    return {
        name: generator.normal(0.0, scale, size=shape).astype(numpy.float32)
        for name, shape in weight_layout(options).items()
    }


def build(files: Dict[str, str], implementation: str, dtype: torch.dtype) -> torch.nn.Module:
    previous = torch.get_default_dtype()
    torch.set_default_dtype(dtype)  # ours loads the weights into parameters of this type
    try:
        if implementation == "allennlp":
            return _ElmoBiLm(files["options_file"], files["weight_file"]).to(dtype).eval()
        return FrozenBilm(files["options_file"], files["weight_file"], lstm_state="carried").eval()
    finally:
        torch.set_default_dtype(previous)


def run(
    files: Dict[str, str], implementation: str, dtype: torch.dtype, batches: List[torch.Tensor]
) -> List[List[torch.Tensor]]:
    """Every layer of every batch, read in order with the state carried, in float64 for comparison."""
    bilm = build(files, implementation, dtype)
    with torch.no_grad():
        return [[layer.double() for layer in bilm(batch)["activations"]] for batch in batches]


def in_step(files: Dict[str, str], batches: List[torch.Tensor]) -> List[float]:
    """Per batch, ours against AllenNLP (float32) when ours starts the batch from AllenNLP's carried state."""
    theirs, ours = build(files, "allennlp", torch.float32), build(files, "ours", torch.float32)
    differences = []
    with torch.no_grad():
        for batch in batches:
            ours._carried = allennlp_state(theirs, ours)
            expected, got = theirs(batch)["activations"], ours(batch)["activations"]
            differences.append(max(float((a - b).abs().max()) for a, b in zip(expected, got)))
    return differences


def allennlp_state(theirs: torch.nn.Module, ours: FrozenBilm):
    """AllenNLP's carried state (layer, row, forward and backward side by side) in ours' layout (direction, layer)."""
    states = theirs._elmo_lstm._states
    if states is None:
        return None
    hidden, memory = states
    projection, cell = ours.options["lstm"]["projection_dim"], ours.options["lstm"]["dim"]
    return [
        [
            (
                hidden[layer, :, d * projection : (d + 1) * projection].clone(),
                memory[layer, :, d * cell : (d + 1) * cell].clone(),
            )
            for layer in range(hidden.size(0))
        ]
        for d in range(2)
    ]


def largest_difference(first: List[List[torch.Tensor]], second: List[List[torch.Tensor]]) -> List[float]:
    """Per batch, the largest absolute difference over all layers."""
    return [max(float((a - b).abs().max()) for a, b in zip(one, other)) for one, other in zip(first, second)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--options", required=True, help="a bilm-tf options.json (the architecture)")
    parser.add_argument(
        "--weights",
        choices=["normal", "uniform"],
        default="normal",
        help="random weights: N(0, scale) or U(-scale, scale)",
    )
    parser.add_argument("--scale", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--batches", type=int, default=20, help="full batches, then one of about half the size")
    parser.add_argument("--output-json", help="write the figures here too")
    args = parser.parse_args()

    shared = Path(os.environ.get("SHARED_DATA_DIR", ROOT.parent / "shared" / "data"))
    data = shared / "conll2003" / "eng.testa"
    sentences = sentences_of(data if data.is_file() else ROOT / "bundled" / "data" / "ner" / "dev.txt")
    size, count = args.batch_size, args.batches
    spans = [(start, start + size) for start in range(0, size * count, size)] + [
        (size * count, size * count + size // 2 + 1)
    ]
    batches = [batch_to_ids(sentences[start:end]) for start, end in spans if sentences[start:end]]

    options = json.loads(Path(args.options).read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as directory:
        files = {"options_file": f"{directory}/options.json", "weight_file": f"{directory}/weights.hdf5"}
        write_elmo_files(
            options,
            weights_for(options, args.weights, args.scale, args.seed),
            files["options_file"],
            files["weight_file"],
        )
        outputs = {
            (implementation, bits): run(files, implementation, dtype, batches)
            for implementation in ("allennlp", "ours")
            for bits, dtype in (("float32", torch.float32), ("float64", torch.float64))
        }
        step = in_step(files, batches)
    figures = {
        "ours_vs_allennlp_float32": largest_difference(outputs["ours", "float32"], outputs["allennlp", "float32"]),
        "ours_vs_allennlp_float64": largest_difference(outputs["ours", "float64"], outputs["allennlp", "float64"]),
        "allennlp_float32_vs_float64": largest_difference(
            outputs["allennlp", "float32"], outputs["allennlp", "float64"]
        ),
        "ours_float32_vs_allennlp_float64": largest_difference(
            outputs["ours", "float32"], outputs["allennlp", "float64"]
        ),
        "ours_vs_allennlp_float32_in_step": step,
    }
    print(
        f"{Path(args.options).name}, weights {args.weights}(scale {args.scale}, seed {args.seed}), "
        f"{len(batches)} batches ({size} sentences, the last {batches[-1].size(0)}), "
        f"{sum(b.size(0) for b in batches)} sentences of {data.name if data.is_file() else 'the bundled sample'}"
    )
    print("| compared | largest difference, first batch | last full batch | any batch |")
    print("|---|---|---|---|")
    for name, values in figures.items():
        print(
            f"| {name.replace('_', ' ')} | {values[0]:.1e} | {values[-2] if len(values) > 1 else values[0]:.1e} | "
            f"{max(values):.1e} |"
        )
    if args.output_json:
        Path(args.output_json).write_text(
            json.dumps({"arguments": vars(args), "per_batch": figures}, indent=2) + "\n", encoding="utf-8"
        )


if __name__ == "__main__":
    main()
