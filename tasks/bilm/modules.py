"""
The layers of the biLM (Peters et al. 2018, §3; bilm-tf's architecture), trainable, computing what
AllenNLP's `Elmo` computes from the same weights.

- `CharacterEncoder`: character embeddings, convolutions of several widths max-pooled over the
  token, highway layers and a linear projection (the context-free layer 0).
- `LstmWithProjection`: one direction of one LSTM layer with a projection of its output, and cell
  and projection clipping when the options ask for them (AllenNLP's `LstmCellWithProjection`).
- `LstmStack`: the layers of one direction, with residual connections between them.
"""

from typing import Any, List, Mapping, Optional, Sequence, Tuple

import torch
from allennlp.data.token_indexers.elmo_indexer import ELMoCharacterMapper
from allennlp.modules.highway import Highway
from allennlp.nn.util import add_sentence_boundary_token_ids

State = Tuple[torch.Tensor, torch.Tensor]  # (hidden: batch x hidden size, memory: batch x cell size)

# ELMo's within-token padding character (AllenNLP's `ELMoCharacterMapper.padding_character`, + 1).
CHARACTER_PADDING_ID = ELMoCharacterMapper.padding_character + 1

_ACTIVATIONS = {"relu": torch.nn.functional.relu, "tanh": torch.tanh}


class CharacterEncoder(torch.nn.Module):
    """Token vectors from character ids `(batch, time, max characters)`; id 0 is padding."""

    def __init__(self, char_cnn: Mapping[str, Any], output_dim: int) -> None:
        super().__init__()
        if char_cnn["activation"] not in _ACTIVATIONS:
            raise ValueError(
                f"char_cnn.activation must be one of {sorted(_ACTIVATIONS)}, not {char_cnn['activation']!r}"
            )
        self.activation = _ACTIVATIONS[char_cnn["activation"]]
        char_dim = char_cnn["embedding"]["dim"]
        self.char_embedding = torch.nn.Embedding(char_cnn["n_characters"], char_dim, padding_idx=0)
        self.convolutions = torch.nn.ModuleList(
            torch.nn.Conv1d(char_dim, count, kernel_size=width) for width, count in char_cnn["filters"]
        )
        num_filters = sum(count for _, count in char_cnn["filters"])
        self.highways = Highway(num_filters, char_cnn["n_highway"], activation=torch.nn.functional.relu)
        self.projection = torch.nn.Linear(num_filters, output_dim)
        self.widest_filter = max(width for width, _ in char_cnn["filters"])

    def forward(self, character_ids: torch.Tensor) -> torch.Tensor:
        batch_size, timesteps, max_characters = character_ids.shape
        # A batch of running text repeats its words: encode each distinct one once.
        distinct, positions = torch.unique(character_ids.reshape(-1, max_characters), dim=0, return_inverse=True)
        characters = self.char_embedding(self._trim_padding(distinct)).transpose(1, 2)
        pooled = [self.activation(convolution(characters).max(dim=-1).values) for convolution in self.convolutions]
        token_vectors = self.projection(self.highways(torch.cat(pooled, dim=-1)))
        return token_vectors[positions].view(batch_size, timesteps, -1)

    def _trim_padding(self, character_ids: torch.Tensor) -> torch.Tensor:
        """
        Drops the character positions no convolution needs. Every token is padded to 50 characters
        with the same padding character, so a window lying wholly in that padding gives the same
        value for every token: keeping the positions up to the longest token plus the widest
        filter keeps every window that touches a character and at least one all-padding window,
        and the max-pooled result is exactly that of all 50 positions, at a fraction of the cost.
        """
        in_words = (character_ids != CHARACTER_PADDING_ID) & (character_ids != 0)
        occupied = in_words.any(dim=0).nonzero()
        longest = int(occupied[-1]) + 1 if len(occupied) else 0
        return character_ids[:, : min(character_ids.size(1), longest + self.widest_filter)]


class LstmWithProjection(torch.nn.Module):
    """
    One LSTM layer in one direction (left to right: callers reverse the sequences for the backward
    direction), its parameters those of a `torch.nn.LSTM` with `proj_size`: gates packed input,
    forget, memory, output (as in AllenNLP), `weight_ih`, `weight_hh`, two biases that add up, and
    the projection `weight_hr`. Without clipping it runs torch's fused LSTM (about 20 times faster
    on a CPU than a Python time loop); with `cell_clip` or `projection_clip`, which the fused kernel
    cannot apply, the same parameters run step by step.
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        cell_size: int,
        cell_clip: Optional[float] = None,
        projection_clip: Optional[float] = None,
    ) -> None:
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.cell_size = cell_size
        self.cell_clip = cell_clip
        self.projection_clip = projection_clip
        self.lstm = torch.nn.LSTM(input_size, cell_size, proj_size=hidden_size, batch_first=True)

    @property
    def clipped(self) -> bool:
        return bool(self.cell_clip or self.projection_clip)

    def forward(
        self, inputs: torch.Tensor, mask: torch.Tensor, state: Optional[State] = None
    ) -> Tuple[torch.Tensor, State]:
        """
        `inputs` `(batch, time, input size)`, `mask` `(batch, time)` true on real tokens, which come
        first in each row (every row has at least one). Returns the outputs `(batch, time, hidden
        size)`, zero on padding, and the state after each row's last real token.
        """
        batch_size = inputs.size(0)
        if state is None:
            state = inputs.new_zeros(batch_size, self.hidden_size), inputs.new_zeros(batch_size, self.cell_size)
        if self.clipped:
            return self._clipped_forward(inputs, mask, state)
        initial = (state[0].unsqueeze(0).contiguous(), state[1].unsqueeze(0).contiguous())
        if bool(mask.all()):
            outputs, (hidden, memory) = self.lstm(inputs, initial)
        else:
            lengths = mask.sum(dim=1).cpu()
            packed = torch.nn.utils.rnn.pack_padded_sequence(inputs, lengths, batch_first=True, enforce_sorted=False)
            packed_outputs, (hidden, memory) = self.lstm(packed, initial)
            outputs, _ = torch.nn.utils.rnn.pad_packed_sequence(
                packed_outputs, batch_first=True, total_length=inputs.size(1)
            )
        return outputs, (hidden.squeeze(0), memory.squeeze(0))

    def _clipped_forward(self, inputs: torch.Tensor, mask: torch.Tensor, state: State) -> Tuple[torch.Tensor, State]:
        """The time loop of AllenNLP's `LstmCellWithProjection`, clipping memory and output."""
        lstm = self.lstm
        hidden, memory = state
        # The input part of every gate, for all time steps in one product.
        projected_inputs = torch.nn.functional.linear(inputs, lstm.weight_ih_l0, lstm.bias_ih_l0 + lstm.bias_hh_l0)
        cell = self.cell_size
        outputs = []
        for timestep in range(inputs.size(1)):
            gates = projected_inputs[:, timestep] + hidden @ lstm.weight_hh_l0.t()
            input_gate = torch.sigmoid(gates[:, :cell])
            forget_gate = torch.sigmoid(gates[:, cell : 2 * cell])
            memory_candidate = torch.tanh(gates[:, 2 * cell : 3 * cell])
            output_gate = torch.sigmoid(gates[:, 3 * cell :])
            new_memory = input_gate * memory_candidate + forget_gate * memory
            if self.cell_clip:
                new_memory = new_memory.clamp(-self.cell_clip, self.cell_clip)
            new_hidden = (output_gate * torch.tanh(new_memory)) @ lstm.weight_hr_l0.t()
            if self.projection_clip:
                new_hidden = new_hidden.clamp(-self.projection_clip, self.projection_clip)
            real = mask[:, timestep : timestep + 1]
            memory = torch.where(real, new_memory, memory)
            hidden = torch.where(real, new_hidden, hidden)
            outputs.append(new_hidden * real)
        return torch.stack(outputs, dim=1), (hidden, memory)


class LstmStack(torch.nn.Module):
    """The LSTM layers of one direction; each layer after the first adds its input (residual)."""

    def __init__(self, lstm: Mapping[str, Any], dropout: float = 0.0) -> None:
        super().__init__()
        size = lstm["projection_dim"]
        self.layers = torch.nn.ModuleList(
            LstmWithProjection(size, size, lstm["dim"], lstm.get("cell_clip"), lstm.get("proj_clip"))
            for _ in range(lstm["n_layers"])
        )
        self.residual = lstm.get("use_skip_connections", True)
        self.dropout = torch.nn.Dropout(dropout)

    def forward(
        self, inputs: torch.Tensor, mask: torch.Tensor, states: Optional[List[State]] = None
    ) -> Tuple[List[torch.Tensor], List[State]]:
        """The output of every layer and each layer's final state."""
        outputs, final_states = [], []
        layer_input = inputs
        for index, layer in enumerate(self.layers):
            output, state = layer(self.dropout(layer_input), mask, states[index] if states else None)
            if self.residual and index > 0:
                output = output + layer_input
            outputs.append(output)
            final_states.append(state)
            layer_input = output
        return outputs, final_states


def bilm_layers(
    character_encoder: CharacterEncoder,
    stacks: Sequence[LstmStack],
    character_ids: torch.Tensor,
    states: Optional[List[List[State]]] = None,
) -> Tuple[List[torch.Tensor], torch.Tensor, List[List[State]]]:
    """
    What AllenNLP's `_ElmoBiLm` computes for `character_ids` `(batch, time, 50)` from
    `batch_to_ids`: each sentence wrapped in `<S>` `</S>`, layer 0 (the token vector, repeated for
    both directions) and each LSTM layer (forward and backward outputs), each
    `(batch, time + 2, 2 * projection_dim)`, zero on padding, with the mask of those positions.
    `stacks` are the forward and the backward stack; every row starts from `states` (per
    direction, per layer; zero when `None`), and the states after each row are returned too.
    """
    mask = (character_ids > 0).any(dim=-1)
    with_boundaries, mask_with_boundaries = add_sentence_boundary_token_ids(
        character_ids,
        mask,
        torch.as_tensor(ELMoCharacterMapper.beginning_of_sentence_characters) + 1,
        torch.as_tensor(ELMoCharacterMapper.end_of_sentence_characters) + 1,
    )
    token_vectors = character_encoder(with_boundaries) * mask_with_boundaries.unsqueeze(-1)
    lengths = mask_with_boundaries.sum(dim=1)
    forward_stack, backward_stack = stacks
    backward_inputs = reverse_padded(token_vectors, lengths)
    if _pairable(stacks):
        forward_layers, backward_layers, forward_states, backward_states = paired_inference(
            stacks, token_vectors, backward_inputs, mask_with_boundaries, states
        )
    else:
        forward_layers, forward_states = forward_stack(
            token_vectors, mask_with_boundaries, states[0] if states else None
        )
        backward_layers, backward_states = backward_stack(
            backward_inputs, mask_with_boundaries, states[1] if states else None
        )
    layers = [torch.cat([token_vectors, token_vectors], dim=-1)] + [
        torch.cat([forward_output, reverse_padded(backward_output, lengths)], dim=-1)
        for forward_output, backward_output in zip(forward_layers, backward_layers)
    ]
    return layers, mask_with_boundaries, [forward_states, backward_states]


PAIRED_WEIGHTS = ("weight_ih_l0", "weight_hh_l0", "weight_hr_l0")  # input, recurrent, projection


def _pairable(stacks: Sequence[LstmStack]) -> bool:
    """Whether `paired_inference` applies: no gradient, no active dropout, clipped LSTMs (step by step anyway)."""
    return (
        not torch.is_grad_enabled()
        and all(not stack.training or stack.dropout.p == 0 for stack in stacks)
        and all(layer.clipped for stack in stacks for layer in stack.layers)
    )


def paired_inference(
    stacks: Sequence[LstmStack],
    forward_inputs: torch.Tensor,
    backward_inputs: torch.Tensor,
    mask: torch.Tensor,
    states: Optional[List[List[State]]] = None,
) -> Tuple[List[torch.Tensor], List[torch.Tensor], List[State], List[State]]:
    """
    What the forward and the backward `LstmStack` return for `forward_inputs` and (already
    reversed) `backward_inputs`, both `(batch, time, dim)`, computed together for a frozen biLM
    whose clipping makes it run step by step. The two directions read sentences of the same
    lengths, so each time step is one batched product of both directions' rows (`bmm`: twice the
    rows per call, and a second core has a direction of its own to work on), and only real tokens
    are computed: the inputs are packed (time major, rows sorted by length, no padding), so the
    input half of the gates is one product over the real tokens and step *t* is a contiguous slice.
    Returns each direction's layer outputs (zero on padding) and final states, as the stacks do.
    """
    batch_size, timesteps, input_size = forward_inputs.shape
    lengths = mask.sum(dim=1).cpu()
    packed = torch.nn.utils.rnn.pack_padded_sequence(
        torch.cat([forward_inputs, backward_inputs], dim=-1), lengths, batch_first=True, enforce_sorted=False
    )
    steps = packed.batch_sizes.tolist()
    layer_input = packed.data.view(-1, 2, input_size).transpose(0, 1).contiguous()  # (direction, token, dim)
    outputs: Tuple[List[torch.Tensor], List[torch.Tensor]] = ([], [])
    final_states: Tuple[List[State], List[State]] = ([], [])
    for index, pair in enumerate(zip(*(stack.layers for stack in stacks))):
        if states:
            initial = [
                torch.stack([states[d][index][part] for d in range(2)]).index_select(1, packed.sorted_indices)
                for part in (0, 1)
            ]
        else:
            initial = [
                forward_inputs.new_zeros(2, batch_size, size) for size in (pair[0].hidden_size, pair[0].cell_size)
            ]
        output, hidden, memory = _paired_layer(pair, layer_input, steps, initial[0], initial[1])
        if stacks[0].residual and index > 0:
            output += layer_input
        padded, _ = torch.nn.utils.rnn.pad_packed_sequence(
            packed._replace(data=output.transpose(0, 1).reshape(-1, 2 * output.size(-1))),
            batch_first=True,
            total_length=timesteps,
        )
        for direction, part in enumerate(padded.chunk(2, dim=-1)):
            outputs[direction].append(part)
            final_states[direction].append(
                (
                    hidden[direction].index_select(0, packed.unsorted_indices),
                    memory[direction].index_select(0, packed.unsorted_indices),
                )
            )
        layer_input = output
    return outputs[0], outputs[1], final_states[0], final_states[1]


def _paired_layer(
    pair: Sequence[LstmWithProjection],
    inputs: torch.Tensor,
    steps: List[int],
    hidden: torch.Tensor,
    memory: torch.Tensor,
) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """
    One layer of both directions over packed `inputs` `(2, tokens, dim)`, `steps` rows at each time
    step; `hidden` and `memory` `(2, batch, size)` in packed row order are updated in place.
    """
    cell, cell_clip, projection_clip = pair[0].cell_size, pair[0].cell_clip, pair[0].projection_clip
    input_weights, recurrent_weights, projection_weights = (
        _stacked(pair, name).transpose(1, 2) for name in PAIRED_WEIGHTS
    )
    biases = torch.stack([layer.lstm.bias_ih_l0 + layer.lstm.bias_hh_l0 for layer in pair]).unsqueeze(1)
    gate_inputs = torch.baddbmm(biases, inputs, input_weights)
    outputs = inputs.new_empty(2, inputs.size(1), pair[0].hidden_size)
    start = 0
    for rows in steps:
        end = start + rows
        gates = torch.baddbmm(gate_inputs[:, start:end], hidden[:, :rows], recurrent_weights)
        # Nonlinearities in place: sigmoid on the input and forget gates (adjacent) and the output gate.
        gates[..., : 2 * cell].sigmoid_()
        gates[..., 3 * cell :].sigmoid_()
        input_gate, forget_gate, memory_candidate, output_gate = gates.split(cell, dim=-1)
        running_memory = memory[:, :rows]
        running_memory.mul_(forget_gate).addcmul_(input_gate, memory_candidate.tanh_())
        if cell_clip:
            running_memory.clamp_(-cell_clip, cell_clip)
        new_hidden = torch.bmm(torch.tanh(running_memory).mul_(output_gate), projection_weights)
        if projection_clip:
            new_hidden.clamp_(-projection_clip, projection_clip)
        hidden[:, :rows] = new_hidden
        outputs[:, start:end] = new_hidden
        start = end
    return outputs, hidden, memory


def share_direction_storage(stacks: Sequence[LstmStack]) -> None:
    """
    Stores each layer's forward and backward weight matrices as the two halves of one
    `(2, rows, columns)` tensor (the parameters become views of it), so that `paired_inference`
    multiplies by both directions without copying them (150 MB per layer and batch with the
    original model). For a frozen biLM (`FrozenBilm`); loading weights in place keeps the sharing.
    """
    for pair in zip(*(stack.layers for stack in stacks)):
        stacked = {}
        for name in PAIRED_WEIGHTS:
            weights = torch.stack([getattr(layer.lstm, name).data for layer in pair])
            for direction, layer in enumerate(pair):
                getattr(layer.lstm, name).data = weights[direction]
            stacked[name] = weights
        pair[0].direction_pair_weights = stacked


def _stacked(pair: Sequence[LstmWithProjection], name: str) -> torch.Tensor:
    """Both directions' `name` matrices as one tensor: the storage they share, else a copy."""
    forward_weights, backward_weights = (getattr(layer.lstm, name) for layer in pair)
    shared = getattr(pair[0], "direction_pair_weights", {}).get(name)
    if (
        shared is not None
        and shared[0].data_ptr() == forward_weights.data_ptr()
        and shared[1].data_ptr() == backward_weights.data_ptr()
        and shared.shape[1:] == forward_weights.shape
    ):
        return shared
    return torch.stack([forward_weights, backward_weights])


def reverse_padded(sequences: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    """Reverses the first `length` steps of each row of `(batch, time, ...)`, leaving padding in place."""
    timesteps = sequences.size(1)
    positions = torch.arange(timesteps, device=sequences.device).unsqueeze(0)
    reversed_positions = lengths.unsqueeze(1) - 1 - positions
    index = torch.where(reversed_positions >= 0, reversed_positions, positions)
    index = index.view(*index.shape, *([1] * (sequences.dim() - 2))).expand_as(sequences)
    return sequences.gather(1, index)
