"""allennlp-models' BiDAF (Seo et al. 2017), scored with the suite's SQuAD v1.1 metric and answering raw text."""

from typing import Dict

from allennlp.models import Model
from allennlp_models.rc.models.bidaf import BidirectionalAttentionFlow

from tasks.squad.metrics import SquadV1EmF1


@Model.register("bidaf_squad_v1")
class BidafSquadV1(BidirectionalAttentionFlow):
    """
    allennlp-models' `bidaf`, unchanged but for its metric (`SquadV1EmF1`, the official v1.1
    exact match and F1 that `bidaf_self_attention` reports) and its default predictor
    ("squad_answerer"). Same parameters as `bidaf`; no span-length limit, as in BiDAF.

    Registered as a `Model` with name "bidaf_squad_v1".
    """

    default_predictor = "squad_answerer"

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._squad_metrics = SquadV1EmF1()

    def get_metrics(self, reset: bool = False) -> Dict[str, float]:
        """`em` and `f1` (official v1.1, as fractions), and BiDAF's start, end and span accuracies."""
        return {
            "start_acc": self._span_start_accuracy.get_metric(reset),
            "end_acc": self._span_end_accuracy.get_metric(reset),
            "span_acc": self._span_accuracy.get_metric(reset),
            **self._squad_metrics.get_metric(reset),
        }
