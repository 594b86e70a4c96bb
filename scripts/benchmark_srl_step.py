"""
What a compiled step would save the SRL encoder: one layer stack's forward time loop, the step's
element-wise work (gates, memory, highway) as `fast_alternating_lstm` runs it in eager mode against
the same work fused by `torch.compile` (inductor's C++ kernels, built with the system's compiler),
and against the recurrent products alone (the floor no fusion can go below).

    OMP_NUM_THREADS=2 python scripts/benchmark_srl_step.py

Sizes are the paper's encoder (8 layers of 300) on a batch of 80 sentences of 25 words whose batch
shrinks by one row a step, as sorted sentences end. Prints the median of `--repeats` timings of
each, interleaved so that a slower moment of the machine falls on all three alike. Results:
docs/throughput.md, "SRL: the paper-size encoder".
"""

import argparse
import statistics
import time

import torch

HIDDEN, BATCH, STEPS, LAYERS = 300, 80, 25, 8


def eager_step(gates, previous_memory, highway_input):
    """The element-wise part of `tasks/srl/alternating_lstm.py`'s forward step, as it runs there."""
    gates[:, : 2 * HIDDEN].sigmoid_()
    gates[:, 2 * HIDDEN : 3 * HIDDEN].tanh_()
    gates[:, 3 * HIDDEN :].sigmoid_()
    input_gate, forget_gate, candidate, output_gate = gates[:, : 4 * HIDDEN].split(HIDDEN, dim=1)
    memory = input_gate * candidate + forget_gate * previous_memory
    lstm_output = output_gate * torch.tanh(memory)
    highway_gate = gates[:, 4 * HIDDEN :]
    return highway_gate * lstm_output + (1 - highway_gate) * highway_input, memory


def functional_step(gates, previous_memory, highway_input):
    """The same function without in-place writes, the form `torch.compile` fuses into one kernel."""
    input_gate, forget_gate = torch.sigmoid(gates[:, :HIDDEN]), torch.sigmoid(gates[:, HIDDEN : 2 * HIDDEN])
    candidate = torch.tanh(gates[:, 2 * HIDDEN : 3 * HIDDEN])
    output_gate, highway_gate = torch.sigmoid(gates[:, 3 * HIDDEN : 4 * HIDDEN]), torch.sigmoid(gates[:, 4 * HIDDEN :])
    memory = input_gate * candidate + forget_gate * previous_memory
    lstm_output = output_gate * torch.tanh(memory)
    return highway_gate * lstm_output + (1 - highway_gate) * highway_input, memory


def products_only(gates, previous_memory, highway_input):
    return gates[:, :HIDDEN], previous_memory


def time_loop(step, weight, bias, inputs):
    hidden = memory = inputs.new_zeros(BATCH, HIDDEN)
    for layer in range(LAYERS):
        for position in range(STEPS):
            rows = BATCH - position
            hidden, memory = hidden[:rows], memory[:rows]
            gates = torch.addmm(bias, hidden, weight.t()).add_(inputs[:rows, position, : 5 * HIDDEN])
            hidden, memory = step(gates, memory, inputs[:rows, position, 5 * HIDDEN :])
        hidden = memory = inputs.new_zeros(BATCH, HIDDEN)
    return hidden


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    torch.manual_seed(0)
    weight, bias = torch.randn(5 * HIDDEN, HIDDEN) * 0.05, torch.zeros(5 * HIDDEN)
    inputs = torch.randn(BATCH, STEPS, 6 * HIDDEN)
    started = time.perf_counter()
    compiled_step = torch.compile(functional_step, dynamic=True)
    with torch.no_grad():
        compiled, eager = (time_loop(step, weight, bias, inputs) for step in (compiled_step, eager_step))
        difference = (compiled - eager).abs().max()
        print(f"compiled in {time.perf_counter() - started:.1f} s; largest difference from eager {difference:.1e}")
        variants = {"eager": eager_step, "torch.compile": compiled_step, "products only": products_only}
        timings = {name: [] for name in variants}
        for _ in range(args.repeats):
            for name, step in variants.items():
                started = time.perf_counter()
                time_loop(step, weight, bias, inputs)
                timings[name].append(time.perf_counter() - started)
    print(f"{torch.get_num_threads()} thread(s), median of {args.repeats}, {LAYERS} layers x {STEPS} steps, forward:")
    for name, seconds in timings.items():
        print(f"  {name:14s} {statistics.median(seconds) * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
