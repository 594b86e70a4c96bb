"""Named-entity recognition on CoNLL-2003 (the ELMo paper's §A.7)."""

from tasks.ner.metrics import SeqevalF1
from tasks.ner.model import BiLstmCrfTagger
from tasks.ner.predictor import NerTaggerPredictor
