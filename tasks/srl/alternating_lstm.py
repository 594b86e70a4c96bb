"""
He et al.'s (2017) interleaved highway LSTM, AllenNLP's `alternating_lstm`, computed faster.

AllenNLP's `StackedAlternatingLstm` runs each of its `AugmentedLstm` layers as a Python loop over
time steps that, at every step, multiplies that step's inputs by the input weights, clones the
whole batch's states, and writes the step's output into a `(batch, time, hidden)` tensor in place.
Autograd then copies that whole tensor once per step on the way back, so a batch's backward pass
grows with the square of its length. Here the same parameters compute the same function with:

- the input part of every gate (and of the highway) for all time steps in one product per layer;
- in the loop, only the recurrent product and the gates, for the rows still running (the batch is
  sorted by length once, so they are a prefix), with no clone and no in-place write: each step's
  output is kept and the steps are stacked once;
- no packing and unpacking between layers.

The parameters are the `StackedAlternatingLstm`'s own (`_module.layer_<i>.cell.*`, the names of
AllenNLP's encoder), built and initialised by it, so the two encoders load each other's weights and
the same seeds give the same model; the recurrent dropout masks are drawn as AllenNLP draws them.
"""

from typing import List

import torch
import torch.nn.functional as F
from allennlp.modules.augmented_lstm import AugmentedLstm
from allennlp.modules.seq2seq_encoders import Seq2SeqEncoder
from allennlp.modules.stacked_alternating_lstm import StackedAlternatingLstm
from allennlp.nn.util import get_dropout_mask


@Seq2SeqEncoder.register("fast_alternating_lstm")
class FastAlternatingLstm(Seq2SeqEncoder):
    """
    Registered as a `Seq2SeqEncoder` with name "fast_alternating_lstm"; takes the arguments of
    AllenNLP's "alternating_lstm" and computes its outputs (tested to 1e-5, values and gradients).

    # Parameters

    input_size, hidden_size, num_layers : `int`
    recurrent_dropout_probability : `float`, optional (default = `0.0`)
        Variational dropout on each layer's recurrent input (one mask per batch), in training.
    use_highway : `bool`, optional (default = `True`)
    use_input_projection_bias : `bool`, optional (default = `True`)
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int,
        recurrent_dropout_probability: float = 0.0,
        use_highway: bool = True,
        use_input_projection_bias: bool = True,
    ) -> None:
        super().__init__(stateful=False)
        self._module = StackedAlternatingLstm(
            input_size, hidden_size, num_layers, recurrent_dropout_probability, use_highway, use_input_projection_bias
        )

    def get_input_dim(self) -> int:
        return self._module.input_size

    def get_output_dim(self) -> int:
        return self._module.hidden_size

    def is_bidirectional(self) -> bool:
        return False

    def forward(self, inputs: torch.Tensor, mask: torch.BoolTensor) -> torch.Tensor:
        """`inputs` `(batch, time, input size)`; returns `(batch, time, hidden size)`, zero on padding."""
        lengths = mask.sum(dim=1)
        sorted_lengths, order = lengths.sort(descending=True)
        running = (
            (sorted_lengths.unsqueeze(0) > torch.arange(inputs.size(1), device=mask.device).unsqueeze(1))
            .sum(dim=1)
            .tolist()
        )
        steps = sum(1 for count in running if count > 0)  # the longest sentence's length
        layer_input = inputs.index_select(0, order)[:, :steps]
        for layer in self._module.lstm_layers:
            layer_input = _layer(layer, layer_input, running[:steps])
        output = layer_input.index_select(0, order.argsort())
        return F.pad(output, (0, 0, 0, inputs.size(1) - steps))


def _layer(layer: AugmentedLstm, inputs: torch.Tensor, running: List[int]) -> torch.Tensor:
    """
    One `AugmentedLstm` over `inputs` `(batch, time, dim)` whose rows are sorted by length, longest
    first; `running[t]` rows are real at step t. Returns `(batch, time, hidden)`, zero on padding.
    """
    cell, hidden_size = layer.cell, layer.lstm_dim
    projected_inputs = cell.input_linearity(inputs)  # every step at once; autograd differentiates it
    # As AllenNLP draws it (a row per non-empty sentence), used or not, so the random state moves on alike.
    dropout_mask = (
        get_dropout_mask(layer.recurrent_dropout_probability, inputs.new_empty(running[0], hidden_size))
        if layer.recurrent_dropout_probability > 0.0
        else None
    )
    steps = list(range(len(running))) if layer.go_forward else list(reversed(range(len(running))))
    return _Recurrence.apply(
        projected_inputs,
        cell.state_linearity.weight,
        cell.state_linearity.bias,
        dropout_mask if dropout_mask is not None and cell.training else None,
        steps,
        running,
        cell.use_highway,
    )


class _Recurrence(torch.autograd.Function):
    """
    The time loop of one `AugmentedLSTMCell` layer, differentiated by hand (backpropagation through
    time), for `projected_inputs` `(batch, time, 5 or 6 x hidden)` (the input part of the gates i,
    f, g, o, then the highway gate and the highway's input), the recurrent weight `(gates, hidden)`
    and bias. Autograd would record a dozen small operations per step and compute the recurrent
    weight's gradient step by step; here the backward pass is one product per step for the state's
    gradient, and the weight's gradient is one product over all steps at the end.
    `steps` are the time steps in the order they are read; `running[t]` rows are real at step t.
    """

    @staticmethod
    def forward(ctx, projected_inputs, weight, bias, dropout_mask, steps, running, use_highway):
        batch_size, _, hidden_size = projected_inputs.size(0), projected_inputs.size(1), weight.size(1)
        gates_size = weight.size(0)
        hidden = memory = projected_inputs.new_zeros(0, hidden_size)
        outputs = projected_inputs.new_zeros(batch_size, projected_inputs.size(1), hidden_size)
        saved = []
        keep = any(ctx.needs_input_grad[:3])  # what the backward pass needs, only if there is one
        for step in steps:
            rows = running[step]
            hidden, memory = _resized(hidden, rows), _resized(memory, rows)
            recurrent = hidden * dropout_mask[:rows] if dropout_mask is not None else hidden
            step_inputs = projected_inputs[:rows, step]
            gates = torch.addmm(bias, recurrent, weight.t()).add_(step_inputs[:, :gates_size])
            gates[:, : 2 * hidden_size].sigmoid_()
            gates[:, 2 * hidden_size : 3 * hidden_size].tanh_()
            gates[:, 3 * hidden_size :].sigmoid_()
            input_gate, forget_gate, candidate, output_gate = gates[:, : 4 * hidden_size].split(hidden_size, dim=1)
            previous_memory = memory
            memory = input_gate * candidate + forget_gate * previous_memory
            squashed = torch.tanh(memory)
            lstm_output = output_gate * squashed
            if use_highway:
                highway_gate = gates[:, 4 * hidden_size :]
                hidden = highway_gate * lstm_output + (1 - highway_gate) * step_inputs[:, gates_size:]
            else:
                hidden = lstm_output
            outputs[:rows, step] = hidden
            if keep:
                saved.append((recurrent, gates, previous_memory, squashed, lstm_output))
        ctx.saved = saved
        ctx.settings = steps, running, use_highway, projected_inputs.shape
        ctx.save_for_backward(projected_inputs, weight, dropout_mask)
        return outputs

    @staticmethod
    def backward(ctx, output_gradient):
        projected_inputs, weight, dropout_mask = ctx.saved_tensors
        steps, running, use_highway, shape = ctx.settings
        hidden_size, gates_size = weight.size(1), weight.size(0)
        input_gradient = projected_inputs.new_zeros(shape)
        gate_gradients, recurrent_inputs = [], []
        hidden_gradient = memory_gradient = projected_inputs.new_zeros(0, hidden_size)
        for position in reversed(range(len(steps))):
            step = steps[position]
            recurrent, gates, previous_memory, squashed, lstm_output = ctx.saved[position]
            rows = running[step]
            # What reaches this step's output: its own gradient and the next step's, through the state.
            hidden_gradient = _resized(hidden_gradient, rows) + output_gradient[:rows, step]
            memory_gradient = _resized(memory_gradient, rows)
            input_gate, forget_gate, candidate, output_gate = gates[:, : 4 * hidden_size].split(hidden_size, dim=1)
            step_gradient = input_gradient[:rows, step]  # a view: filled in place
            gate_gradient = step_gradient[:, :gates_size]
            if use_highway:
                highway_gate = gates[:, 4 * hidden_size :]
                step_inputs = projected_inputs[:rows, step, gates_size:]
                lstm_gradient = hidden_gradient * highway_gate
                gate_gradient[:, 4 * hidden_size :] = (
                    hidden_gradient * (lstm_output - step_inputs) * highway_gate * (1 - highway_gate)
                )
                step_gradient[:, gates_size:] = hidden_gradient * (1 - highway_gate)
            else:
                lstm_gradient = hidden_gradient
            gate_gradient[:, 3 * hidden_size : 4 * hidden_size] = (
                lstm_gradient * squashed * output_gate * (1 - output_gate)
            )
            memory_gradient = memory_gradient + lstm_gradient * output_gate * (1 - squashed * squashed)
            gate_gradient[:, :hidden_size] = memory_gradient * candidate * input_gate * (1 - input_gate)
            gate_gradient[:, hidden_size : 2 * hidden_size] = (
                memory_gradient * previous_memory * forget_gate * (1 - forget_gate)
            )
            gate_gradient[:, 2 * hidden_size : 3 * hidden_size] = (
                memory_gradient * input_gate * (1 - candidate * candidate)
            )
            memory_gradient = memory_gradient * forget_gate
            hidden_gradient = gate_gradient @ weight
            if dropout_mask is not None:
                hidden_gradient = hidden_gradient * dropout_mask[:rows]
            gate_gradients.append(gate_gradient)
            recurrent_inputs.append(recurrent)
        all_gate_gradients = torch.cat(gate_gradients)
        weight_gradient = all_gate_gradients.t() @ torch.cat(recurrent_inputs)
        bias_gradient = all_gate_gradients.sum(dim=0)
        del ctx.saved
        return input_gradient, weight_gradient, bias_gradient, None, None, None, None


def _resized(state: torch.Tensor, rows: int) -> torch.Tensor:
    """
    `state` for `rows` rows: a prefix when sentences have ended, zero rows appended when shorter
    sentences start (those begin from the zero state); in the backward pass, the same for gradients.
    """
    if rows < state.size(0):
        return state[:rows]
    if rows > state.size(0):
        return F.pad(state, (0, 0, 0, rows - state.size(0)))
    return state
