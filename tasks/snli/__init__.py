"""Textual entailment on SNLI with ESIM (the ELMo paper's §A.3)."""

from tasks.snli.model import ElmoEsim
from tasks.snli.predictor import EntailmentClassifierPredictor
