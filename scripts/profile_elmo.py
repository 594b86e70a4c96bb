"""
Where the biLM's forward time goes, AllenNLP's `Elmo` against our `PaperElmo` (lstm_state `zero`),
on the original architecture with random weights in the original layout (as
scripts/benchmark_elmo.py builds it) and real sentences (CoNLL-2003 dev when present).

Each part is timed in CPU seconds of this process (`time.process_time`, one torch thread, so that
the other jobs of a shared machine do not enter the figures), by hooks around the modules and the
matrix products that make it up:

- character CNN: the character encoder without its highway layers (embedding, convolutions,
  max-pooling, projection to 512, and in ours the search for the batch's distinct words);
- highway: the two highway layers (the same AllenNLP `Highway` module in both);
- LSTM input products: the input half of every gate (512 -> 16384), all layers and directions;
- LSTM recurrent products: the state half of every gate (512 -> 16384);
- LSTM projection: 4096 -> 512 after every step;
- rest of the recurrent loop: everything else inside the LSTM layers (gate nonlinearities, cell
  update, clipping, AllenNLP's per-step copies of the state, our packing of rows);
- other: the rest of the forward (sentence boundaries, reversal, scalar mix).

The first batch warms up and is not counted.

    nice -n 10 python scripts/profile_elmo.py --sentences 96 --batch-size 32
"""

import argparse
import tempfile
import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Dict, Iterator, List

import torch
from allennlp.modules.elmo import _ElmoCharacterEncoder, batch_to_ids
from allennlp.modules.highway import Highway
from allennlp.modules.lstm_cell_with_projection import LstmCellWithProjection

from benchmark_elmo import ORIGINAL_OPTIONS, build, conll_blocks, default_file, write_random_original_bilm
from tasks.bilm import modules as bilm_modules

PARTS = (
    "character CNN",
    "highway",
    "LSTM input products",
    "LSTM recurrent products",
    "LSTM projection",
    "rest of the recurrent loop",
    "other",
)


class Clock:
    """CPU seconds by part. A part's time includes the parts timed inside it; `report` subtracts them."""

    def __init__(self) -> None:
        self.seconds: Dict[str, float] = defaultdict(float)
        self.inside_our_lstm = False
        self.next_product_is_input = False
        self.counting = False

    def time_module(self, module: torch.nn.Module, part: str) -> None:
        starts = []

        def before(*_) -> None:
            starts.append(time.process_time())

        def after(*_) -> None:
            if self.counting:
                self.seconds[part] += time.process_time() - starts[-1]
            starts.pop()

        module.register_forward_pre_hook(before)
        module.register_forward_hook(after)

    def time_our_product(self, function: Callable, part: str) -> Callable:
        """`function` (a torch product that our LSTM calls), timed when our LSTM calls it."""

        def timed(*args, **kwargs):
            if not self.inside_our_lstm:
                return function(*args, **kwargs)
            start = time.process_time()
            result = function(*args, **kwargs)
            if self.counting:
                self.seconds[part] += time.process_time() - start
            return result

        return timed


def instrument(elmo: torch.nn.Module, clock: Clock) -> None:
    for module in elmo.modules():
        if isinstance(module, (_ElmoCharacterEncoder, bilm_modules.CharacterEncoder)):
            clock.time_module(module, "character encoder")
        elif isinstance(module, Highway):
            clock.time_module(module, "highway")
        elif isinstance(module, LstmCellWithProjection):
            clock.time_module(module, "LSTM")
            clock.time_module(module.input_linearity, "LSTM input products")
            clock.time_module(module.state_linearity, "LSTM recurrent products")
            clock.time_module(module.state_projection, "LSTM projection")


@contextmanager
def timing_our_lstms(clock: Clock) -> Iterator[None]:
    """
    Our frozen LSTMs run in `paired_inference` (both directions, one layer at a time in
    `_paired_layer`), which looks its products up on `torch` when it calls them: time them there.
    Each layer's first `baddbmm` is its input product, the others its recurrent ones.
    """
    originals = bilm_modules.paired_inference, bilm_modules._paired_layer, torch.baddbmm, torch.bmm

    def paired_inference(*args, **kwargs):
        clock.inside_our_lstm = True
        start = time.process_time()
        try:
            return originals[0](*args, **kwargs)
        finally:
            clock.inside_our_lstm = False
            if clock.counting:
                clock.seconds["LSTM"] += time.process_time() - start

    def paired_layer(*args, **kwargs):
        clock.next_product_is_input = True
        return originals[1](*args, **kwargs)

    timed_input = clock.time_our_product(originals[2], "LSTM input products")
    timed_recurrent = clock.time_our_product(originals[2], "LSTM recurrent products")

    def baddbmm(*args, **kwargs):
        first, clock.next_product_is_input = clock.next_product_is_input, False
        return (timed_input if first else timed_recurrent)(*args, **kwargs)

    bilm_modules.paired_inference, bilm_modules._paired_layer = paired_inference, paired_layer
    torch.baddbmm, torch.bmm = baddbmm, clock.time_our_product(originals[3], "LSTM projection")
    try:
        yield
    finally:
        bilm_modules.paired_inference, bilm_modules._paired_layer, torch.baddbmm, torch.bmm = originals


def profile(elmo: torch.nn.Module, batches: List[torch.Tensor]) -> Dict[str, float]:
    """CPU seconds of each part over `batches[1:]` (`batches[0]` warms up), and their total."""
    clock = Clock()
    instrument(elmo, clock)
    with torch.no_grad(), timing_our_lstms(clock):
        elmo(batches[0])
        clock.counting = True
        start = time.process_time()
        for batch in batches[1:]:
            elmo(batch)
        total = time.process_time() - start
    seconds = clock.seconds
    lstm_products = seconds["LSTM input products"] + seconds["LSTM recurrent products"] + seconds["LSTM projection"]
    parts = {
        "character CNN": seconds["character encoder"] - seconds["highway"],
        "highway": seconds["highway"],
        "LSTM input products": seconds["LSTM input products"],
        "LSTM recurrent products": seconds["LSTM recurrent products"],
        "LSTM projection": seconds["LSTM projection"],
        "rest of the recurrent loop": seconds["LSTM"] - lstm_products,
        "other": total - seconds["character encoder"] - seconds["LSTM"],
    }
    return {**parts, "total": total}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dev-file", type=Path, default=default_file("eng.testa", "dev.txt"))
    parser.add_argument("--options-file", type=Path, default=ORIGINAL_OPTIONS)
    parser.add_argument("--sentences", type=int, default=96, help="the first dev sentences; the first batch warms up")
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args()
    torch.set_num_threads(1)
    sentences = [[line.split()[0] for line in block] for block in conll_blocks(args.dev_file)[: args.sentences]]
    batches = [
        batch_to_ids(sentences[start : start + args.batch_size]) for start in range(0, len(sentences), args.batch_size)
    ]
    if len(batches) < 2:
        parser.error("--sentences must give at least two batches (the first one warms up)")
    tokens = sum(len(sentence) for sentence in sentences[args.batch_size :])
    with tempfile.TemporaryDirectory(prefix="profile_elmo_") as temporary:
        files = write_random_original_bilm(Path(temporary), args.options_file)
        results = {name: profile(build(name, files), batches) for name in ("allennlp", "ours_zero")}
    print(
        f"{tokens} tokens ({len(batches) - 1} batches of {args.batch_size} sentences of {args.dev_file}, after one "
        "warm-up batch), "
        f"CPU seconds, 1 torch thread\n"
    )
    print("| part | AllenNLP `Elmo` s | share | ours (zero) s | share | ratio |")
    print("|---|---|---|---|---|---|")
    for part in PARTS + ("total",):
        theirs, ours = results["allennlp"][part], results["ours_zero"][part]
        ratio = f"{theirs / ours:.1f}×" if ours > 0.005 else "—"
        print(
            f"| {part} | {theirs:.2f} | {theirs / results['allennlp']['total']:.0%} | {ours:.2f} | "
            f"{ours / results['ours_zero']['total']:.0%} | {ratio} |"
        )
    theirs, ours = tokens / results["allennlp"]["total"], tokens / results["ours_zero"]["total"]
    print(f"\ntokens per CPU second: AllenNLP {theirs:.0f}, ours {ours:.0f}")


if __name__ == "__main__":
    main()
