"""
The frozen biLM behind ELMo: what AllenNLP's `_ElmoBiLm` computes, from the same `options.json`
and `weights.hdf5`, computed faster, deterministic by default, and optionally cached on disk.

Faster: the token vectors convolve only the characters a batch needs; the LSTMs compute the input
part of every gate for all time steps in one product and, in the time loop, only the recurrent
part for the rows still running (or torch's fused kernel, for weights without clipping).

Light to save: a frozen biLM's weights come from `weight_file` whenever the model is built, so
checkpoints and archives store only the file's sha256 in their place (375 MB less per checkpoint
with the original model), and loading them refuses a weight file with other bytes.

Deterministic: AllenNLP's `Elmo` carries each batch row's LSTM state into the next batch, so a
sentence's vectors depend on what was in the batch before it. Here every sentence starts from the
same state, `lstm_state="zero"` (the default) or `"warm_up"` (the state the biLM reaches after
reading a fixed text, `WARM_UP_TEXT`, computed once); `"carried"` reproduces AllenNLP's behaviour.
"""
import hashlib
import json
import logging
from pathlib import Path
from typing import Dict, List, Optional, Tuple, Union

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.modules.elmo import batch_to_ids

from tasks.bilm.export import load_original_layout
from tasks.bilm.model import read_options
from tasks.bilm.modules import CharacterEncoder, LstmStack, State, bilm_layers, share_direction_storage

logger = logging.getLogger(__name__)

LSTM_STATES = ("zero", "warm_up", "carried")

# Read once, sentence after sentence with the state carried, to give the `warm_up` initial state.
WARM_UP_TEXT = [
    "The committee met on Tuesday to discuss the new proposal .",
    "Several members said that the plan was too expensive , but others disagreed .",
    "After a long debate , they agreed to wait for the report .",
    "It is expected to be published early next year .",
]


class FrozenBilm(torch.nn.Module):
    """
    Registered nowhere: built by `PaperElmo` and the `fast_elmo` token embedder. Its output is
    that of AllenNLP's `_ElmoBiLm`, so AllenNLP's `Elmo(module=...)` can mix it:
    `{"activations": [layer 0, LSTM layer 1, ...], "mask": ...}`, each `(batch, time + 2, dim)`
    with the sentence boundaries added.

    # Parameters

    options_file, weight_file : `str`
        The biLM in the original bilm-tf layout (published, or exported by `allennlp export-bilm`).
    lstm_state : `str`, optional (default = `"zero"`)
        The LSTM state every sentence starts from: `"zero"`, `"warm_up"`, or `"carried"` from
        the same batch row of the previous batch, as AllenNLP's `Elmo` does.
    cache_directory : `str`, optional
        Where to keep the activations of the sentences seen (`ActivationCache`); not with
        `"carried"` states, which make activations depend on the batch, nor with `requires_grad`.
    cache_dtype : `str`, optional (default = `"float16"`)
        How the cache stores activations: `"float16"` or `"float32"`.
    requires_grad : `bool`, optional (default = `False`)
        Fine-tune the biLM with the task (the paper keeps it frozen). Frozen, its weights are left
        out of the state dict (the sha256 of `weight_file` stands in for them); fine-tuned, they
        are saved as usual.
    """

    def __init__(
        self,
        options_file: str,
        weight_file: str,
        lstm_state: str = "zero",
        cache_directory: Optional[str] = None,
        cache_dtype: str = "float16",
        requires_grad: bool = False,
    ) -> None:
        super().__init__()
        if lstm_state not in LSTM_STATES:
            raise ConfigurationError(f"lstm_state must be one of {LSTM_STATES}, not {lstm_state!r}")
        if cache_directory and (lstm_state == "carried" or requires_grad):
            raise ConfigurationError(
                "an activation cache needs a frozen biLM whose sentences start from a fixed state: "
                "drop cache_directory, or use lstm_state 'zero' or 'warm_up' with requires_grad false"
            )
        self.options = read_options(options_file)
        lstm = self.options["lstm"]
        self.character_encoder = CharacterEncoder(self.options["char_cnn"], lstm["projection_dim"])
        self.stacks = torch.nn.ModuleList(LstmStack(lstm) for _ in range(2))  # forward, backward
        load_original_layout(self, weight_file)
        for parameter in self.parameters():
            parameter.requires_grad_(requires_grad)
        self.weight_file = weight_file
        # What this biLM computes (options, weights, initial state): names its cache, embeddings and indexes.
        self.weights_sha256, self.fingerprint = weight_digests(options_file, weight_file, lstm_state)
        if not requires_grad:
            share_direction_storage(self.stacks)
            self.register_state_dict_post_hook(_digest_for_frozen_weights)
            self.register_load_state_dict_pre_hook(_frozen_weights_from_file)
        self.num_layers = lstm["n_layers"] + 1
        self.lstm_state = lstm_state
        self._carried: Optional[List[List[State]]] = None
        self._fixed_state = self._warm_up_state() if lstm_state == "warm_up" else None
        self.cache = None
        if cache_directory:
            from tasks.elmo.cache import ActivationCache

            self.cache = ActivationCache(
                cache_directory,
                self.fingerprint,
                self.num_layers,
                self.get_output_dim(),
                cache_dtype,
            )

    def get_output_dim(self) -> int:
        return 2 * self.options["lstm"]["projection_dim"]

    def forward(self, inputs: torch.Tensor, word_inputs: Optional[torch.Tensor] = None) -> Dict[str, Union[torch.Tensor, List[torch.Tensor]]]:
        """`inputs`: character ids `(batch, time, 50)`. `word_inputs` is AllenNLP's vocabulary cache, not supported."""
        if word_inputs is not None:
            raise ConfigurationError("FrozenBilm takes character ids only (use cache_directory, not vocab_to_cache)")
        if self.cache is not None:
            return self.cache.activations(inputs, self._compute)
        return self._compute(inputs)

    def _compute(self, character_ids: torch.Tensor) -> Dict[str, Union[torch.Tensor, List[torch.Tensor]]]:
        with torch.set_grad_enabled(torch.is_grad_enabled() and self.character_encoder.projection.weight.requires_grad):
            layers, mask, final_states = bilm_layers(
                self.character_encoder, self.stacks, character_ids, self._initial_states(character_ids.size(0))
            )
        if self.lstm_state == "carried":
            self._carry(final_states, mask.any(dim=1))
        return {"activations": layers, "mask": mask}

    def _initial_states(self, batch_size: int) -> Optional[List[List[State]]]:
        if self.lstm_state == "zero" or (self.lstm_state == "carried" and self._carried is None):
            return None
        if self.lstm_state == "warm_up":
            return [
                [(hidden.expand(batch_size, -1), memory.expand(batch_size, -1)) for hidden, memory in direction]
                for direction in self._fixed_state
            ]
        return [
            [(_rows(hidden, batch_size), _rows(memory, batch_size)) for hidden, memory in direction]
            for direction in self._carried
        ]

    def _carry(self, final_states: List[List[State]], used_rows: torch.Tensor) -> None:
        """
        AllenNLP's `_EncoderBase._update_states`: the stored state grows to the largest batch
        seen; rows of this batch that held a sentence take its final state, the others keep theirs.
        """
        if self._carried is None:
            self._carried = [[(h.detach(), m.detach()) for h, m in direction] for direction in final_states]
            return
        batch_size = used_rows.size(0)
        used = used_rows.unsqueeze(1)
        carried = []
        for old_direction, new_direction in zip(self._carried, final_states):
            layers = []
            for (old_hidden, old_memory), (new_hidden, new_memory) in zip(old_direction, new_direction):
                size = max(old_hidden.size(0), batch_size)
                hidden, memory = _rows(old_hidden, size).clone(), _rows(old_memory, size).clone()
                hidden[:batch_size] = torch.where(used, new_hidden.detach(), hidden[:batch_size])
                memory[:batch_size] = torch.where(used, new_memory.detach(), memory[:batch_size])
                layers.append((hidden, memory))
            carried.append(layers)
        self._carried = carried

    def _warm_up_state(self) -> List[List[State]]:
        """
        The states after reading `WARM_UP_TEXT` as continuous text: the forward LM reads it from
        its first sentence to its last, the backward LM from its last to its first, so each ends
        where a following (forward) or preceding (backward) sentence would begin.
        """

        def read(sentences) -> List[List[State]]:
            states = None
            for sentence in sentences:
                _, _, states = bilm_layers(self.character_encoder, self.stacks, batch_to_ids([sentence.split()]), states)
            return states

        with torch.no_grad():
            return [read(WARM_UP_TEXT)[0], read(reversed(WARM_UP_TEXT))[1]]


def _rows(state: torch.Tensor, rows: int) -> torch.Tensor:
    """The first `rows` rows of a stored state, zero rows appended when it has fewer."""
    if state.size(0) >= rows:
        return state[:rows]
    return torch.cat([state, state.new_zeros(rows - state.size(0), state.size(1))])


WEIGHTS_DIGEST_KEY = "weights_sha256"  # the state dict's stand-in for a frozen biLM's weights


def _digest_for_frozen_weights(bilm: FrozenBilm, state_dict, prefix: str, local_metadata) -> None:
    for name, _ in bilm.named_parameters():
        del state_dict[prefix + name]
    state_dict[prefix + WEIGHTS_DIGEST_KEY] = torch.tensor(list(bytes.fromhex(bilm.weights_sha256)), dtype=torch.uint8)


def _frozen_weights_from_file(bilm: FrozenBilm, state_dict, prefix: str, *_) -> None:
    """Loads a state dict saved with or without the frozen weights, if it was saved over the same weight file."""
    stored = state_dict.pop(prefix + WEIGHTS_DIGEST_KEY, None)
    if stored is not None and bytes(stored.tolist()).hex() != bilm.weights_sha256:
        raise ConfigurationError(
            f"these model weights were trained over a biLM weight file with sha256 {bytes(stored.tolist()).hex()}, "
            f"but {bilm.weight_file} has sha256 {bilm.weights_sha256}: give the weight file the model was trained with"
        )
    for name, parameter in bilm.named_parameters():
        state_dict.setdefault(prefix + name, parameter.detach())


def weight_digests(options_file: str, weight_file: str, lstm_state: str) -> Tuple[str, str]:
    """
    The sha256 of `weight_file`, and the biLM's fingerprint (what it computes: its options, the
    sha256 of its weights and its initial state), from one read of the weights.
    """
    weights = hashlib.sha256()
    with open(weight_file, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 24), b""):
            weights.update(block)
    biLM = hashlib.sha256()
    biLM.update(json.dumps(read_options(options_file), sort_keys=True).encode("utf-8"))
    biLM.update(weights.digest())
    biLM.update(lstm_state.encode("utf-8"))
    if lstm_state == "warm_up":
        biLM.update("\n".join(WARM_UP_TEXT).encode("utf-8"))
    return weights.hexdigest(), biLM.hexdigest()

