"""Question answering on SQuAD 1.1 (the ELMo paper's §A.4)."""

from tasks.squad.bidaf import BidafSquadV1
from tasks.squad.metrics import SquadV1EmF1
from tasks.squad.model import BidafSelfAttention
from tasks.squad.moving_average import ResumableExponentialMovingAverage
from tasks.squad.predictor import SquadAnswererPredictor
