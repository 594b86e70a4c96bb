"""
Exact match and F1 as the official SQuAD v1.1 evaluation script computes them.

Both compare normalised strings: lower-cased, punctuation removed (Python's `string.punctuation`),
the articles "a", "an" and "the" removed as whole words, whitespace collapsed. F1 is over the
bags of normalised tokens. A prediction is scored against each gold answer and keeps its best.
One v1.1 detail that SQuAD 2.0's script changed: when either side normalises to nothing, F1 is 0
(v2.0 gives 1 when both are empty), while exact match is 1 when both are.
"""

import re
import string
from collections import Counter
from typing import Dict, List, Sequence, Union

from allennlp.nn.util import dist_reduce_sum
from allennlp.training.metrics import Metric

_PUNCTUATION = frozenset(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b")


def normalize_answer(text: str) -> str:
    """The official normalisation: lower case, no punctuation, no articles, single spaces."""
    text = "".join(character for character in text.lower() if character not in _PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


def exact_match(prediction: str, gold: str) -> float:
    return float(normalize_answer(prediction) == normalize_answer(gold))


def f1_score(prediction: str, gold: str) -> float:
    predicted_tokens = normalize_answer(prediction).split()
    gold_tokens = normalize_answer(gold).split()
    shared = sum((Counter(predicted_tokens) & Counter(gold_tokens)).values())
    if shared == 0:
        return 0.0
    precision = shared / len(predicted_tokens)
    recall = shared / len(gold_tokens)
    return 2 * precision * recall / (precision + recall)


def best_over_gold(metric, prediction: str, gold_answers: Sequence[str]) -> float:
    """The metric of `prediction` against its closest gold answer."""
    return max(metric(prediction, gold) for gold in gold_answers)


@Metric.register("squad_v1_em_f1")
class SquadV1EmF1(Metric):
    """
    Averages the official SQuAD v1.1 exact match and F1 over the questions seen, reported as
    fractions (`em`, `f1`; the official script prints them times 100).

    Called with one predicted answer string and its list of gold answers, or with a list of each:
    the same call as allennlp-models' `squad` metric, so it can stand in for it in `bidaf`.

    Registered as a `Metric` with name "squad_v1_em_f1".
    """

    def __init__(self) -> None:
        self._exact_match = 0.0
        self._f1 = 0.0
        self._count = 0

    def __call__(  # type: ignore
        self, predictions: Union[str, List[str]], gold_answers: Union[List[str], List[List[str]]]
    ) -> None:
        if isinstance(predictions, str):
            predictions, gold_answers = [predictions], [gold_answers]  # type: ignore
        if len(predictions) != len(gold_answers):
            raise ValueError(f"{len(predictions)} predictions but {len(gold_answers)} lists of gold answers")
        exact, f1 = 0.0, 0.0
        for prediction, gold in zip(predictions, gold_answers):
            if not gold:
                raise ValueError(f"no gold answer to score the prediction {prediction!r} against")
            exact += best_over_gold(exact_match, prediction, gold)
            f1 += best_over_gold(f1_score, prediction, gold)
        self._exact_match += dist_reduce_sum(exact)
        self._f1 += dist_reduce_sum(f1)
        self._count += dist_reduce_sum(len(predictions))

    def get_metric(self, reset: bool = False) -> Dict[str, float]:
        metrics = {
            "em": self._exact_match / self._count if self._count else 0.0,
            "f1": self._f1 / self._count if self._count else 0.0,
        }
        if reset:
            self.reset()
        return metrics

    def reset(self) -> None:
        self._exact_match = 0.0
        self._f1 = 0.0
        self._count = 0
