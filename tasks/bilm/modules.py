"""
The layers of the biLM (Peters et al. 2018, §3; bilm-tf's architecture), trainable, computing what
AllenNLP's `Elmo` computes from the same weights.

- `CharacterEncoder`: character embeddings, convolutions of several widths max-pooled over the
  token, highway layers and a linear projection (the context-free layer 0).
- `LstmWithProjection`: one direction of one LSTM layer with a projection of its output, cell and
  projection clipping (AllenNLP's `LstmCellWithProjection`), computing the input part of all gates
  for all time steps in one matrix product and only the recurrent part in the time loop.
- `LstmStack`: the layers of one direction, with residual connections between them.
"""
from typing import Any, List, Mapping, Optional, Tuple

import torch
from allennlp.modules.highway import Highway

State = Tuple[torch.Tensor, torch.Tensor]  # (hidden: batch x hidden size, memory: batch x cell size)

_ACTIVATIONS = {"relu": torch.nn.functional.relu, "tanh": torch.tanh}


class CharacterEncoder(torch.nn.Module):
    """Token vectors from character ids `(batch, time, max characters)`; id 0 is padding."""

    def __init__(self, char_cnn: Mapping[str, Any], output_dim: int) -> None:
        super().__init__()
        if char_cnn["activation"] not in _ACTIVATIONS:
            raise ValueError(f"char_cnn.activation must be one of {sorted(_ACTIVATIONS)}, not {char_cnn['activation']!r}")
        self.activation = _ACTIVATIONS[char_cnn["activation"]]
        char_dim = char_cnn["embedding"]["dim"]
        self.char_embedding = torch.nn.Embedding(char_cnn["n_characters"], char_dim, padding_idx=0)
        self.convolutions = torch.nn.ModuleList(
            torch.nn.Conv1d(char_dim, count, kernel_size=width) for width, count in char_cnn["filters"]
        )
        num_filters = sum(count for _, count in char_cnn["filters"])
        self.highways = Highway(num_filters, char_cnn["n_highway"], activation=torch.nn.functional.relu)
        self.projection = torch.nn.Linear(num_filters, output_dim)

    def forward(self, character_ids: torch.Tensor) -> torch.Tensor:
        batch_size, timesteps, max_characters = character_ids.shape
        characters = self.char_embedding(character_ids.reshape(-1, max_characters)).transpose(1, 2)
        pooled = [self.activation(convolution(characters).max(dim=-1).values) for convolution in self.convolutions]
        token_vectors = self.projection(self.highways(torch.cat(pooled, dim=-1)))
        return token_vectors.view(batch_size, timesteps, -1)


class LstmWithProjection(torch.nn.Module):
    """
    One LSTM layer in one direction (left to right: callers reverse the sequences for the backward
    direction). Gates are packed input, forget, memory, output, as in AllenNLP.
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
        self.hidden_size = hidden_size
        self.cell_size = cell_size
        self.cell_clip = cell_clip
        self.projection_clip = projection_clip
        self.input_linearity = torch.nn.Linear(input_size, 4 * cell_size, bias=False)
        self.state_linearity = torch.nn.Linear(hidden_size, 4 * cell_size, bias=True)
        self.state_projection = torch.nn.Linear(cell_size, hidden_size, bias=False)

    def initial_state(self, batch_size: int, like: torch.Tensor) -> State:
        return like.new_zeros(batch_size, self.hidden_size), like.new_zeros(batch_size, self.cell_size)

    def forward(
        self, inputs: torch.Tensor, mask: torch.Tensor, state: Optional[State] = None
    ) -> Tuple[torch.Tensor, State]:
        """
        `inputs` `(batch, time, input size)`, `mask` `(batch, time)` true on real tokens, which come
        first in each row. Returns the outputs `(batch, time, hidden size)`, zero on padding, and the
        state after each row's last real token.
        """
        batch_size, timesteps, _ = inputs.shape
        hidden, memory = state if state is not None else self.initial_state(batch_size, inputs)
        projected_inputs = self.input_linearity(inputs)  # all time steps in one product
        cell = self.cell_size
        outputs = []
        for timestep in range(timesteps):
            gates = projected_inputs[:, timestep] + self.state_linearity(hidden)
            input_gate = torch.sigmoid(gates[:, :cell])
            forget_gate = torch.sigmoid(gates[:, cell : 2 * cell])
            memory_candidate = torch.tanh(gates[:, 2 * cell : 3 * cell])
            output_gate = torch.sigmoid(gates[:, 3 * cell :])
            new_memory = input_gate * memory_candidate + forget_gate * memory
            if self.cell_clip:
                new_memory = new_memory.clamp(-self.cell_clip, self.cell_clip)
            new_hidden = self.state_projection(output_gate * torch.tanh(new_memory))
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


def reverse_padded(sequences: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    """Reverses the first `length` steps of each row of `(batch, time, ...)`, leaving padding in place."""
    timesteps = sequences.size(1)
    positions = torch.arange(timesteps, device=sequences.device).unsqueeze(0)
    reversed_positions = lengths.unsqueeze(1) - 1 - positions
    index = torch.where(reversed_positions >= 0, reversed_positions, positions)
    index = index.view(*index.shape, *([1] * (sequences.dim() - 2))).expand_as(sequences)
    return sequences.gather(1, index)
