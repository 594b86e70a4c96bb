"""Coreference resolution (the ELMo paper's §A.6): Lee et al. (2017)'s model, the CoNLL-2012 metrics."""

from tasks.coref.metrics import Conll2012CorefScores
from tasks.coref.model import EndToEndCoreferenceResolver
from tasks.coref.predictor import CorefResolverPredictor
from tasks.coref.schedulers import ExponentialDecay
