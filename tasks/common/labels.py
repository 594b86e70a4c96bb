"""The class probabilities of a classifier's output, by label name, for predictors to report."""

from typing import Dict, Sequence

import torch
from allennlp.data import Vocabulary


def probabilities_by_label(
    probabilities: Sequence[float], vocab: Vocabulary, order: Sequence[str] = (), namespace: str = "labels"
) -> Dict[str, float]:
    """
    `{label: probability}` for every label of `namespace`, those named in `order` first and in that
    order (e.g. from most negative to most positive), any others after them in vocabulary order.
    """
    if isinstance(probabilities, torch.Tensor):
        probabilities = probabilities.tolist()
    indices = vocab.get_token_to_index_vocabulary(namespace)
    labels = [label for label in order if label in indices]
    labels += [label for label in indices if label not in labels]
    return {label: float(probabilities[indices[label]]) for label in labels}
