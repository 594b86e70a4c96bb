"""
Labels: the class probabilities of a classifier's output by label name, for predictors to report;
and tag vocabularies that hold every tag of their coding scheme.
"""

import logging
from typing import Dict, Iterable, List, Optional, Sequence

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import Instance, Vocabulary
from allennlp.data.vocabulary import DEFAULT_NON_PADDED_NAMESPACES

logger = logging.getLogger(__name__)


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


# The tag prefixes of each coding scheme, besides `O`.
SCHEME_PREFIXES = {"BIOUL": "BIUL", "BIO": "BI", "IOB1": "BI"}


def complete_tag_scheme(vocab: Vocabulary, namespace: str, encoding: str) -> List[str]:
    """
    Adds to `namespace` every tag that `encoding` can give the types its tags name (and `O`): a
    training set whose locations are all short has `U-LOC` and `B-LOC` but no `I-LOC`, which a
    longer location in dev or test data holds. Returns the tags added, in the order added (after the
    others, so no index changes).
    """
    if encoding not in SCHEME_PREFIXES:
        raise ConfigurationError(f"label encoding must be one of {sorted(SCHEME_PREFIXES)}, not {encoding!r}")
    tags = vocab.get_token_to_index_vocabulary(namespace)
    types = sorted({tag[2:] for tag in tags if tag[1:2] == "-" and tag[:1] in SCHEME_PREFIXES[encoding]})
    wanted = ["O"] + [f"{prefix}-{name}" for name in types for prefix in SCHEME_PREFIXES[encoding]]
    missing = [tag for tag in wanted if tag not in tags]
    vocab.add_tokens_to_namespace(missing, namespace)
    return missing


@Vocabulary.register("complete_tag_schemes", constructor="from_instances_and_schemes")
class CompleteTagSchemesVocabulary(Vocabulary):
    """
    AllenNLP's vocabulary from instances (`from_instances`, the same keys), whose tag namespaces then
    hold every tag of their scheme for the types they hold (`complete_tag_scheme`): a config's
    `vocabulary: {type: 'complete_tag_schemes', tag_schemes: {labels: 'BIOUL'}}`. An archive reads
    its vocabulary from its files, as every archive does.
    """

    @classmethod
    def from_instances_and_schemes(
        cls,
        instances: Iterable[Instance],
        tag_schemes: Dict[str, str],
        min_count: Optional[Dict[str, int]] = None,
        non_padded_namespaces: Iterable[str] = DEFAULT_NON_PADDED_NAMESPACES,
        pretrained_files: Optional[Dict[str, str]] = None,
        only_include_pretrained_words: bool = False,
        tokens_to_add: Optional[Dict[str, List[str]]] = None,
    ) -> Vocabulary:
        vocab = Vocabulary.from_instances(
            instances,
            min_count=min_count,
            non_padded_namespaces=non_padded_namespaces,
            pretrained_files=pretrained_files,
            only_include_pretrained_words=only_include_pretrained_words,
            tokens_to_add=tokens_to_add,
        )
        for namespace, encoding in tag_schemes.items():
            added = complete_tag_scheme(vocab, namespace, encoding)
            if added:
                logger.info("%s: added the %s tags its training data lacked: %s", namespace, encoding, added)
        return vocab
