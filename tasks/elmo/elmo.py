"""
ELMo as the paper defines it (Peters et al. 2018, §3.2): the layers of a frozen biLM combined by
learned, softmax-normalised weights times a scalar γ, one such mix for each place the task model
takes ELMo (its input, the output of its biRNN), with λ‖w‖² on the mix weights (set in the
config's regularizer, `configs/lib/elmo.libsonnet`).

`PaperElmo` is AllenNLP's `Elmo` (same output, same scalar mixes, layer norm and dropout) over our
`FrozenBilm`, with the paper's ablation of the layers: `layers="top"` uses the top layer alone and
keeps γ trainable, as the paper does (§A.2: without γ, training failed), where AllenNLP's fixed
`scalar_mix_parameters` freeze γ too. `FastElmoTokenEmbedder` ("fast_elmo") is the drop-in for
AllenNLP's `elmo_token_embedder`, with the same config keys.
"""

from typing import List, Optional, Tuple

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.modules.elmo import Elmo
from allennlp.modules.time_distributed import TimeDistributed
from allennlp.modules.token_embedders import TokenEmbedder

from tasks.elmo.frozen_bilm import FrozenBilm

LAYER_CHOICES = ("all", "top")
# Pre-softmax weights that put all the mass on the top layer: exp(-9e10) is exactly 0 in float32.
_EXCLUDED = -9e10


class PaperElmo(Elmo):
    """
    `num_output_representations` scalar mixes of one frozen biLM's layers. Forward takes character
    ids `(batch, time, 50)` and returns AllenNLP's `Elmo` output:
    `{"elmo_representations": [one (batch, time, dim) tensor per mix], "mask": ...}`.

    # Parameters

    options_file, weight_file : `str`
        The biLM, in the original layout.
    num_output_representations : `int`, optional (default = `1`)
        One per place ELMo enters the task model (input, output).
    layers : `str`, optional (default = `"all"`)
        `"all"`: a learned softmax mix of every layer; `"top"`: the top layer only (γ still learned).
    do_layer_norm : `bool`, optional (default = `False`)
        Layer-normalise each biLM layer before mixing (the paper does for SNLI).
    dropout : `float`, optional (default = `0.5`)
        On each mixed representation.
    lstm_state, cache_directory, cache_dtype, requires_grad
        Passed to `FrozenBilm`.
    keep_sentence_boundaries : `bool`, optional (default = `False`)
        As in AllenNLP's `Elmo`.
    initial_gamma : `float`, optional (default = `1.0`)
        γ of every mix before training (AllenNLP's and the paper's: 1). A smaller γ starts ELMo at the
        scale of the word vectors it is concatenated to, where this biLM's layers are several times larger.
    """

    def __init__(
        self,
        options_file: str,
        weight_file: str,
        num_output_representations: int = 1,
        layers: str = "all",
        do_layer_norm: bool = False,
        dropout: float = 0.5,
        lstm_state: str = "zero",
        cache_directory: Optional[str] = None,
        cache_dtype: str = "float16",
        requires_grad: bool = False,
        keep_sentence_boundaries: bool = False,
        scalar_mix_parameters: Optional[List[float]] = None,
        initial_gamma: float = 1.0,
    ) -> None:
        if layers not in LAYER_CHOICES:
            raise ConfigurationError(f"layers must be one of {LAYER_CHOICES}, not {layers!r}")
        if layers == "top" and scalar_mix_parameters is not None:
            raise ConfigurationError("give either layers: 'top' or scalar_mix_parameters, not both")
        bilm = FrozenBilm(options_file, weight_file, lstm_state, cache_directory, cache_dtype, requires_grad)
        if layers == "top":
            scalar_mix_parameters = [_EXCLUDED] * (bilm.num_layers - 1) + [1.0]
        super().__init__(
            None,
            None,
            num_output_representations,
            do_layer_norm=do_layer_norm,
            dropout=dropout,
            keep_sentence_boundaries=keep_sentence_boundaries,
            scalar_mix_parameters=scalar_mix_parameters,
            module=bilm,
        )
        for scalar_mix in self._scalar_mixes:
            scalar_mix.gamma.data.fill_(initial_gamma)
            if layers == "top":
                scalar_mix.gamma.requires_grad_(True)

    @property
    def bilm(self) -> FrozenBilm:
        return self._elmo_lstm  # type: ignore


@TokenEmbedder.register("fast_elmo")
class FastElmoTokenEmbedder(TokenEmbedder):
    """
    One ELMo representation at the input of a model: AllenNLP's `elmo_token_embedder` (same keys:
    `options_file`, `weight_file`, `do_layer_norm`, `dropout`, `requires_grad`, `projection_dim`,
    `scalar_mix_parameters`) over `PaperElmo`, plus `layers`, `lstm_state`, `cache_directory`,
    `cache_dtype` and `initial_gamma`. AllenNLP's `vocab_to_cache` is refused: the activation cache supersedes it.

    Registered as a `TokenEmbedder` with name "fast_elmo".
    """

    def __init__(
        self,
        options_file: str,
        weight_file: str,
        do_layer_norm: bool = False,
        dropout: float = 0.5,
        requires_grad: bool = False,
        projection_dim: Optional[int] = None,
        vocab_to_cache: Optional[List[str]] = None,
        scalar_mix_parameters: Optional[List[float]] = None,
        layers: str = "all",
        lstm_state: str = "zero",
        cache_directory: Optional[str] = None,
        cache_dtype: str = "float16",
        initial_gamma: float = 1.0,
    ) -> None:
        super().__init__()
        if vocab_to_cache is not None:
            raise ConfigurationError(
                "fast_elmo does not take vocab_to_cache: set cache_directory to cache the whole biLM"
            )
        self._elmo = PaperElmo(
            options_file,
            weight_file,
            num_output_representations=1,
            layers=layers,
            do_layer_norm=do_layer_norm,
            dropout=dropout,
            lstm_state=lstm_state,
            cache_directory=cache_directory,
            cache_dtype=cache_dtype,
            requires_grad=requires_grad,
            scalar_mix_parameters=scalar_mix_parameters,
            initial_gamma=initial_gamma,
        )
        self._projection = torch.nn.Linear(self._elmo.get_output_dim(), projection_dim) if projection_dim else None
        self.output_dim = projection_dim or self._elmo.get_output_dim()

    def get_output_dim(self) -> int:
        return self.output_dim

    def forward(self, elmo_tokens: torch.Tensor) -> torch.Tensor:  # type: ignore
        """`elmo_tokens` `(batch, time, 50)` character ids -> `(batch, time, output dim)`."""
        representation = self._elmo(elmo_tokens)["elmo_representations"][0]
        if self._projection is None:
            return representation
        projection = self._projection
        for _ in range(representation.dim() - 2):
            projection = TimeDistributed(projection)
        return projection(representation)


def check_elmo_places(
    elmo: Optional[PaperElmo],
    at_input: bool,
    at_output: bool,
    flags: Tuple[str, str] = ("elmo_at_input", "elmo_at_output"),
) -> None:
    """
    For a model that concatenates ELMo at its input and/or its encoder's output: one scalar mix per
    place ELMo enters, and an `elmo` exactly when some place asks for it. `flags` names the model's
    two switches in the messages.
    """
    places = int(at_input) + int(at_output)
    switches = f"{flags[0]}={at_input}, {flags[1]}={at_output}"
    if elmo is None:
        if places:
            raise ConfigurationError(
                f"{flags[0]} or {flags[1]} is true, but the model has no elmo: no `elmo` was given"
            )
        return
    if places == 0:
        raise ConfigurationError(f"`elmo` was given, but {flags[0]} and {flags[1]} are both false")
    mixes = len(elmo._scalar_mixes)  # one mix per output representation (AllenNLP's Elmo has no public count)
    if mixes != places:
        raise ConfigurationError(
            f"`elmo` has num_output_representations={mixes}, but ELMo enters {places} place(s) ({switches})"
        )
