"""
Per-layer token vectors of tokenised sentences from a frozen biLM, and the views of them that the
inspection commands compare: each layer alone (0 is the character CNN's context-free token
vector, 1 and up the biLSTM layers), their average, and an optional fixed mix.
"""

from typing import Dict, Iterator, Optional, Sequence, Tuple

import numpy
from allennlp.common.checks import ConfigurationError

from tasks.elmo.embed import sentence_layers
from tasks.elmo.frozen_bilm import FrozenBilm

AVERAGE, MIX = "average", "mix"


def layer_stacks(
    bilm: FrozenBilm, sentences: Sequence[Sequence[str]], batch_size: int = 64
) -> Iterator[Tuple[int, numpy.ndarray]]:
    """
    `(index, layers)` for every non-empty sentence, `layers` of shape `(num_layers, tokens, dim)`
    (float32, sentence boundaries left out), in batches of similar length, so not in input order.
    """
    order = sorted((index for index, tokens in enumerate(sentences) if tokens), key=lambda index: len(sentences[index]))
    for first in range(0, len(order), batch_size):
        batch = order[first : first + batch_size]
        yield from zip(batch, sentence_layers(bilm, [sentences[index] for index in batch]))


def views(layers: numpy.ndarray, mix_weights: Optional[Sequence[float]] = None) -> Dict[str, numpy.ndarray]:
    """
    The vectors each view gives for `layers` `(num_layers, ..., dim)`: every layer, their average,
    and, with `mix_weights` (one per layer, used as given), the weighted sum. γ is left out: it
    scales every vector alike, which neither cosines nor the probes' standardised features see.
    """
    if mix_weights is not None and len(mix_weights) != layers.shape[0]:
        raise ConfigurationError(
            f"the biLM has {layers.shape[0]} layers: give {layers.shape[0]} mix weights, not {len(mix_weights)}"
        )
    result = {str(layer): layers[layer] for layer in range(layers.shape[0])}
    result[AVERAGE] = layers.mean(axis=0)
    if mix_weights is not None:
        result[MIX] = numpy.tensordot(numpy.asarray(mix_weights, dtype=numpy.float32), layers, axes=1)
    return result


def view_title(name: str) -> str:
    """How tables and charts name a view."""
    if name == "0":
        return "layer 0 (characters)"
    if name.isdigit():
        return f"layer {name} (biLSTM)"
    return {AVERAGE: "average of the layers", MIX: "given mix"}[name]


def unit_rows(vectors: numpy.ndarray) -> numpy.ndarray:
    """Each row scaled to length 1 (a zero row stays zero), for cosines by dot products."""
    norms = numpy.linalg.norm(vectors, axis=-1, keepdims=True)
    return vectors / numpy.maximum(norms, 1e-12)
