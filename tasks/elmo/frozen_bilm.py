"""
The frozen biLM behind ELMo: what AllenNLP's `_ElmoBiLm` computes, from the same `options.json`
and `weights.hdf5`, computed faster, deterministic by default, and optionally cached on disk.

Faster: the token vectors convolve only the characters a batch needs; the LSTMs compute the input
part of every gate for all time steps in one product and, in the time loop, only the recurrent
part for the rows still running (or torch's fused kernel, for weights without clipping).

Light to save: a frozen biLM's weights come from `weight_file` whenever the model is built, so
checkpoints and archives store only the file's sha256 in their place (375 MB less per checkpoint
with the original model), and loading them refuses a weight file with other bytes.

Checked: a frozen biLM computes what its weight file holds, or nothing. Its fingerprint, which
names its activation cache, is taken from its parameters as loaded, and it refuses to run once they
have changed (a model's initializer whose regex also matches the biLM's parameters, for instance).

Deterministic: AllenNLP's `Elmo` carries each batch row's LSTM state into the next batch, so a
sentence's vectors depend on what was in the batch before it. Here every sentence starts from the
same state, `lstm_state="zero"` (the default) or `"warm_up"` (the state the biLM reaches after
reading a fixed text, `WARM_UP_TEXT`, computed once); `"carried"` reproduces AllenNLP's behaviour.
"""

import hashlib
import json
import logging
from typing import Dict, List, Optional, Tuple, Union

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.modules.elmo import batch_to_ids

from tasks.bilm.modules import CharacterEncoder, LstmStack, State, bilm_layers, share_direction_storage
from tasks.bilm.weight_file import load_original_layout, read_options
from tasks.common.files import file_sha256
from tasks.elmo.cache import ActivationCache

logger = logging.getLogger(__name__)

LSTM_STATES = ("zero", "warm_up", "carried")
NO_CACHE = "none"  # the cache setting (ELMO_CACHE_DIR) for no activation cache

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
        self.options_file = options_file
        self.weight_file = weight_file
        self.weights_sha256 = file_sha256(weight_file)
        self.requires_grad = requires_grad
        if not requires_grad:
            share_direction_storage(self.stacks)
            self.register_state_dict_post_hook(_digest_for_frozen_weights)
            self.register_load_state_dict_pre_hook(_frozen_weights_from_file)
        # What this biLM computes, from the values of its parameters as loaded (not from the file's
        # name or bytes): names its cache, embeddings and indexes. A frozen biLM refuses to run once
        # anything has changed those values (`_check_frozen`), so the name always fits.
        self._loaded_digests = parameter_digests(self)
        self._verified = _parameter_versions(self)
        self.fingerprint = fingerprint(self.options, self._loaded_digests, lstm_state)
        self.num_layers = lstm["n_layers"] + 1
        self.lstm_state = lstm_state
        self._carried: Optional[List[List[State]]] = None
        self._fixed_state = self._warm_up_state() if lstm_state == "warm_up" else None
        self.cache = None
        if cache_directory:
            self.cache = ActivationCache(
                cache_directory,
                self.fingerprint,
                self.num_layers,
                self.get_output_dim(),
                cache_dtype,
            )

    def get_output_dim(self) -> int:
        return 2 * self.options["lstm"]["projection_dim"]

    def forward(
        self, inputs: torch.Tensor, word_inputs: Optional[torch.Tensor] = None
    ) -> Dict[str, Union[torch.Tensor, List[torch.Tensor]]]:
        """`inputs`: character ids `(batch, time, 50)`. `word_inputs` is AllenNLP's vocabulary cache, not supported."""
        if word_inputs is not None:
            raise ConfigurationError("FrozenBilm takes character ids only (use cache_directory, not vocab_to_cache)")
        self._check_frozen()
        if self.cache is not None:
            return self.cache.activations(inputs, self._compute)
        return self._compute(inputs)

    def _check_frozen(self) -> None:
        """
        Stops when a frozen biLM's parameters no longer hold what was loaded from `weight_file`
        (an initializer whose regex reaches into the biLM re-draws them, for instance). Hashes the
        parameters again only when one was written or replaced since the last check.
        """
        if self.requires_grad:
            return
        versions = _parameter_versions(self)
        if versions == self._verified:
            return
        changed = [name for name, digest in parameter_digests(self).items() if digest != self._loaded_digests[name]]
        if changed:
            raise ConfigurationError(
                f"the frozen biLM's parameters {', '.join(changed)} no longer hold what {self.weight_file} holds: "
                "something changed them after loading (for example an initializer regex of the model that also "
                "matches parameters under the biLM); a frozen biLM must compute what its weight file holds"
            )
        self._verified = versions

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
                _, _, states = bilm_layers(
                    self.character_encoder, self.stacks, batch_to_ids([sentence.split()]), states
                )
            return states

        with torch.no_grad():
            return [read(WARM_UP_TEXT)[0], read(reversed(WARM_UP_TEXT))[1]]


def cache_directory_for(setting: Optional[str], lstm_state: str) -> Optional[str]:
    """
    The activation cache a biLM whose sentences start from `lstm_state` keeps under a cache setting
    (ELMO_CACHE_DIR's value): none when the setting is empty or 'none', or when each sentence
    carries the state of the one before, which makes its activations depend on the batch.
    configs/lib/elmo.libsonnet states the same rule for the configs, which cannot call Python;
    `test_the_configs_follow_the_cache_rule` checks that the two agree.
    """
    if not setting or setting.lower() == NO_CACHE or lstm_state == "carried":
        return None
    return setting


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
            f"but {bilm.weight_file} has sha256 {bilm.weights_sha256}: give the weight file the model was trained with "
            "(for an archive: ELMO_OPTIONS_FILE and ELMO_WEIGHT_FILE, or its path with --overrides)"
        )
    for name, parameter in bilm.named_parameters():
        state_dict.setdefault(prefix + name, parameter.detach())


def parameter_digests(module: torch.nn.Module) -> Dict[str, str]:
    """Each parameter's sha256 over its dtype, shape and values, by name."""
    digests = {}
    for name, parameter in module.named_parameters():
        values = parameter.detach().cpu().contiguous()
        digest = hashlib.sha256(f"{values.dtype} {tuple(values.shape)}".encode("utf-8"))
        digest.update(values.numpy().tobytes())
        digests[name] = digest.hexdigest()
    return digests


def _parameter_versions(module: torch.nn.Module) -> Tuple[Tuple[int, int], ...]:
    """Where each parameter's values live and how often they were written in place: changes with any write."""
    return tuple((parameter.data_ptr(), parameter._version) for parameter in module.parameters())


# Part of every fingerprint: a new definition of what is computed (or of the cache's layout) gives
# every biLM a new fingerprint, so nothing written under an older definition is read again.
FINGERPRINT_VERSION = "parameters-v2"


def fingerprint(options: Dict, digests: Dict[str, str], lstm_state: str) -> str:
    """What a biLM computes: its options, the values of its parameters and its initial state."""
    biLM = hashlib.sha256(FINGERPRINT_VERSION.encode("utf-8"))
    biLM.update(json.dumps(options, sort_keys=True).encode("utf-8"))
    biLM.update(json.dumps(sorted(digests.items())).encode("utf-8"))
    biLM.update(lstm_state.encode("utf-8"))
    if lstm_state == "warm_up":
        biLM.update("\n".join(WARM_UP_TEXT).encode("utf-8"))
    return biLM.hexdigest()
