"""
Reader for the Stanford Sentiment Treebank's PTB trees (Socher et al. 2013): one tree per line,
every node labelled 0 (very negative) to 4 (very positive), each word in its own labelled node;
the root's label is the sentence's.

It is allennlp-models' `sst_tokens` reader (5-, 3- or 2-class labels, optionally every phrase as
an instance) with what the ELMo paper's setting and honest bookkeeping need:

- labels are names (`very negative` .. `very positive`), so the vocabulary, metrics and
  predictions say what they mean;
- `min_phrase_tokens`: the paper trains on phrases of four or more tokens only (§A.8, following
  CoVe);
- the treebank's PTB escapes (`-LRB-`, `1\\/2`, ...) become the characters they stand for, the
  text a biLM and word vectors were trained on;
- a malformed tree, label or byte stops reading with the file, the line and what was expected,
  and the log says how many trees were read and how many phrases or trees were left out, and why.
"""

import logging
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Union

from allennlp.common.checks import ConfigurationError
from allennlp.common.file_utils import cached_path
from allennlp.data import DatasetReader, Instance, Token
from allennlp.data.fields import LabelField, TextField
from allennlp.data.token_indexers import TokenIndexer
from allennlp_models.classification.dataset_readers.stanford_sentiment_tree_bank import (
    StanfordSentimentTreeBankDatasetReader,
)
from nltk.tree import Tree

from data_readers.errors import DataFormatError, numbered_lines

logger = logging.getLogger(__name__)

SENTIMENT_LABELS = ("0", "1", "2", "3", "4")

# The name of each treebank label at each granularity; None: left out (2-class has no neutral).
LABEL_NAMES: Dict[str, Tuple[Optional[str], ...]] = {
    "5-class": ("very negative", "negative", "neutral", "positive", "very positive"),
    "3-class": ("negative", "negative", "neutral", "positive", "positive"),
    "2-class": ("negative", "negative", None, "positive", "positive"),
}

PTB_BRACKETS = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}"}


def unescape(word: str) -> str:
    """The text a PTB token stands for: `-LRB-` is `(`, `1\\/2` is `1/2`, `\\*` is `*`."""
    return PTB_BRACKETS.get(word, word).replace("\\/", "/").replace("\\*", "*")


def class_names(granularity: str) -> List[str]:
    """The labels of a granularity, from most negative to most positive."""
    names: List[str] = []
    for name in LABEL_NAMES[granularity]:
        if name is not None and name not in names:
            names.append(name)
    return names


@DatasetReader.register("sst_trees")
class SstTreesReader(StanfordSentimentTreeBankDatasetReader):
    """
    Reads SST trees into instances with a `tokens` `TextField` and, for labelled text, a `label`
    `LabelField` holding the label's name.

    Registered as a `DatasetReader` with name "sst_trees".

    # Parameters

    token_indexers : `Dict[str, TokenIndexer]`, optional (default = `{"tokens": SingleIdTokenIndexer()}`)
    use_subtrees : `bool`, optional (default = `False`)
        Every phrase (node) of each tree as an instance, not only the sentence.
    granularity : `str`, optional (default = `"5-class"`)
        `"5-class"`, `"3-class"` or `"2-class"` (which leaves out neutral trees and phrases).
    min_phrase_tokens : `int`, optional (default = `1`)
        Leave out trees and phrases with fewer tokens (the paper trains on 4 or more).
    """

    def __init__(
        self,
        token_indexers: Dict[str, TokenIndexer] = None,
        use_subtrees: bool = False,
        granularity: str = "5-class",
        min_phrase_tokens: int = 1,
        **kwargs,
    ) -> None:
        if kwargs.get("tokenizer") is not None:
            raise ConfigurationError("sst_trees reads the trees' own tokens: it takes no tokenizer")
        if min_phrase_tokens < 1:
            raise ConfigurationError(f"min_phrase_tokens must be at least 1, not {min_phrase_tokens}")
        super().__init__(token_indexers=token_indexers, use_subtrees=use_subtrees, granularity=granularity, **kwargs)
        self._min_phrase_tokens = min_phrase_tokens

    @property
    def granularity(self) -> str:
        return self._granularity

    def _read(self, file_path: str) -> Iterable[Instance]:
        path = Path(cached_path(file_path))
        trees = kept = too_short = unlabelled = 0
        for line_number, line in numbered_lines(path):
            if not line.strip():
                continue
            tree = parse_tree(path, line_number, line.strip())
            trees += 1
            for phrase in tree.subtrees() if self._use_subtrees else [tree]:
                words = phrase.leaves()
                if len(words) < self._min_phrase_tokens:
                    too_short += 1
                elif LABEL_NAMES[self._granularity][int(phrase.label())] is None:
                    unlabelled += 1
                else:
                    kept += 1
                    yield self.text_to_instance(words, phrase.label())
        what = "phrases" if self._use_subtrees else "trees"
        left_out = [f"{too_short} {what} under {self._min_phrase_tokens} tokens"] if too_short else []
        if unlabelled:
            left_out.append(f"{unlabelled} neutral {what} (no {self._granularity} label)")
        logger.info("%s: %d trees, %d %s read; left out: %s", path, trees, kept, what, ", ".join(left_out) or "none")

    def text_to_instance(  # type: ignore
        self, tokens: Sequence[Union[str, Token]], sentiment: Optional[str] = None
    ) -> Instance:
        """
        An instance for `tokens` (treebank words or `Token`s; PTB escapes are undone) and, when
        given, the treebank label `sentiment` ("0" to "4"), named at the reader's granularity.
        """
        words = [token if isinstance(token, Token) else Token(unescape(token)) for token in tokens]
        fields = {"tokens": TextField(words)}
        if sentiment is not None:
            if str(sentiment) not in SENTIMENT_LABELS:
                raise ValueError(f"sentiment must be one of {', '.join(SENTIMENT_LABELS)}, not {sentiment!r}")
            name = LABEL_NAMES[self._granularity][int(sentiment)]
            if name is None:
                raise ValueError(f"a neutral sentiment has no {self._granularity} label")
            fields["label"] = LabelField(name)
        return Instance(fields)


def parse_tree(path: Path, line_number: int, line: str) -> Tree:
    """
    The line's tree: every node labelled 0-4 and covering a word or more, words in nodes of their
    own. A node may hold several words: the treebank's tokens `8 1/2` and `2 1/2` contain a space.
    """
    try:
        tree = Tree.fromstring(line)
    except ValueError as error:
        reason = " ".join(" ".join(str(error).splitlines()[:2]).split())
        raise DataFormatError(
            path, line_number, f"expected one PTB tree such as (3 (2 a) (3 film)): {reason}"
        ) from None
    for node in tree.subtrees():
        if node.label() not in SENTIMENT_LABELS:
            raise DataFormatError(path, line_number, f"node label {node.label()!r} is not a sentiment 0-4")
        if len(node) == 0:
            raise DataFormatError(path, line_number, f"node ({node.label()}) has no words")
        words = [child for child in node if isinstance(child, str)]
        if words and len(words) < len(node):
            word = words[0]
            raise DataFormatError(
                path, line_number, f"word {word!r} has no sentiment node of its own: expected e.g. (2 {word})"
            )
    return tree
