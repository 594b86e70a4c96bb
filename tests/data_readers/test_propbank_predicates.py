"""The predicate reader: every predicate of every sentence, read through an SRL reader."""

import pytest
from allennlp.common.checks import ConfigurationError

from data_readers.conll2003 import Conll2003NerReader
from data_readers.conll2012_srl import Conll2012SrlReader
from data_readers.propbank_predicates import PropBankPredicatesReader
from data_readers.universal_propbank import UniversalPropBankSrlReader


def test_predicate_reader_marks_every_predicate_of_every_sentence(srl_files):
    for path, frames_reader in zip(srl_files, (UniversalPropBankSrlReader(), Conll2012SrlReader())):
        instances = list(PropBankPredicatesReader(frames_reader).read(str(path)))
        assert len(instances) == 6  # the sentence without a predicate too
        assert instances[1]["tags"].labels == ["O", "O", "O", "V", "O", "O", "V", "O", "O"]
        assert set(instances[5]["tags"].labels) == {"O"}


def test_predicate_reader_needs_an_srl_reader():
    with pytest.raises(ConfigurationError, match="frames_reader must be an SRL reader"):
        PropBankPredicatesReader(Conll2003NerReader())
