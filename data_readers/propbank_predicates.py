"""
Predicate identification data: which words of a sentence are PropBank predicates, read from the
same SRL files the role labeller trains on (either format), for the predicate tagger that lets
the SRL predictor work on raw text.
"""

import logging
from typing import Dict, Iterable, List, Optional

from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader, Instance, Token
from allennlp.data.fields import MetadataField, SequenceLabelField, TextField
from allennlp.data.token_indexers import SingleIdTokenIndexer, TokenIndexer

from data_readers.srl_frames import SrlFramesReader

logger = logging.getLogger(__name__)

PREDICATE, OTHER = "V", "O"


@DatasetReader.register("propbank_predicates")
class PropBankPredicatesReader(DatasetReader):
    """
    One instance per sentence (with or without predicates): `tokens`, `tags` (`V` on each
    predicate's word, `O` elsewhere, in the `predicate_labels` namespace) and `metadata` with the
    words. The sentences come from `frames_reader`'s `sentences`, so both SRL formats work.

    Registered as a `DatasetReader` with name "propbank_predicates".

    # Parameters

    frames_reader : `DatasetReader`
        Reads the sentences: one of the SRL readers, `srl_conll2012` or `srl_universal_propbank`.
    token_indexers : `Dict[str, TokenIndexer]`, optional (default = `{"tokens": SingleIdTokenIndexer()}`)
    """

    def __init__(
        self, frames_reader: DatasetReader, token_indexers: Optional[Dict[str, TokenIndexer]] = None, **kwargs
    ) -> None:
        super().__init__(**kwargs)
        if not isinstance(frames_reader, SrlFramesReader):
            raise ConfigurationError(
                "frames_reader must be an SRL reader (srl_conll2012, srl_universal_propbank), not "
                f"{type(frames_reader).__name__}"
            )
        self.frames_reader = frames_reader
        self._token_indexers = token_indexers or {"tokens": SingleIdTokenIndexer()}

    def _read(self, file_path: str) -> Iterable[Instance]:
        sentences = predicates = 0
        for sentence in self.frames_reader.sentences(file_path):
            sentences += 1
            predicates += len(sentence.predicates)
            yield self.text_to_instance([Token(word) for word in sentence.words], sentence.predicates)
        logger.info("%s: %d sentences, %d predicates", file_path, sentences, predicates)

    def text_to_instance(self, tokens: List[Token], predicates: Optional[List[int]] = None) -> Instance:  # type: ignore
        """An instance for `tokens`; `predicates`, when given, are the predicates' word indices."""
        fields = {
            "tokens": TextField(tokens),
            "metadata": MetadataField({"words": [token.text for token in tokens]}),
        }
        if predicates is not None:
            chosen = set(predicates)
            labels = [PREDICATE if index in chosen else OTHER for index in range(len(tokens))]
            fields["tags"] = SequenceLabelField(labels, fields["tokens"], label_namespace="predicate_labels")
        return Instance(fields)

    def apply_token_indexers(self, instance: Instance) -> None:
        instance.fields["tokens"]._token_indexers = self._token_indexers  # type: ignore
