"""Dataset readers, one module per data format, and the offline tokenizer."""

import allennlp_compat  # noqa: F401  (torch 2.x fixes first)
from data_readers.conll2003 import Conll2003NerReader
from data_readers.conll2012 import Conll2012CorefReader
from data_readers.conll2012_srl import Conll2012SrlReader
from data_readers.conllu_words import read_conllu_words
from data_readers.lm_corpus import LanguageModelStreamsReader
from data_readers.propbank_predicates import PropBankPredicatesReader
from data_readers.snli import SnliJsonlReader
from data_readers.squad import SquadV1Reader
from data_readers.sst import SstTreesReader
from data_readers.subset import TrainingSubsetReader
from data_readers.tokenizers import BlankSpacyTokenizer
from data_readers.universal_propbank import UniversalPropBankSrlReader
