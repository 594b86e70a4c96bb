"""Semantic role labelling on PropBank (the ELMo paper's §A.5): model, encoder, predicate tagger, metric, predictor."""

from tasks.srl.alternating_lstm import FastAlternatingLstm
from tasks.srl.metrics import Conll2005SrlScore
from tasks.srl.model import DeepSrl
from tasks.srl.predicate_tagger import PredicateTagger
from tasks.srl.predictor import SrlFramesPredictor
