"""
The official CoNLL-2005 SRL score (`srl-eval.pl`, Carreras and Màrquez), in Python, on BIO tags.

What the script counts, for each proposition (one predicate's frame):

* An argument is a labelled span; a `C-X` span continues the nearest `X` argument before it,
  making one discontinuous argument (a `C-X` with no `X` before it is an `X` argument itself).
  `R-X` arguments are arguments of their own, labelled `R-X`.
* `V` (with its `C-V` pieces) is the predicate, excluded from every count.
* A predicted argument is correct when a gold argument has the same first and last word and the
  same label and, for discontinuous ones, exactly the same pieces.
* Precision, recall and F1 are micro-averaged over all arguments of all propositions; per label
  too, a discontinuous argument under its base label `X`.

BIO tags become spans as AllenNLP writes them for the script (`convert_bio_tags_to_conll_format`):
a span starts at each `B-`, and at an `I-X` that does not continue an `X` span (the lenient
reading of an invalid sequence); Viterbi-constrained predictions never have one.

`tests/tasks/srl/test_metrics.py` checks this against the script itself on random propositions, and
shows on hand-worked ones where AllenNLP's `span_f1` counts differently.
"""

from collections import Counter
from typing import Dict, List, NamedTuple, Sequence, Tuple

from allennlp.training.metrics import Metric

from tasks.common.counts import LabelCountsMetric, label_scores

EXCLUDED_LABELS = ("V",)
CONTINUATION = "C-"


class Argument(NamedTuple):
    label: str
    pieces: Tuple[Tuple[int, int], ...]  # (first word, last word) of each piece, in order

    @property
    def boundaries(self) -> Tuple[int, int]:
        return self.pieces[0][0], self.pieces[-1][1]


def bio_spans(tags: Sequence[str]) -> List[Tuple[int, int, str]]:
    """`(first word, last word, label)` of each span in BIO `tags`, read as `srl-eval.pl` reads them."""
    spans: List[Tuple[int, int, str]] = []
    for position, tag in enumerate(tags):
        if tag == "O":
            continue
        label = tag[2:]
        continues = tag.startswith("I-") and spans and spans[-1][1] == position - 1 and spans[-1][2] == label
        if continues:
            first, _, _ = spans[-1]
            spans[-1] = (first, position, label)
        else:
            spans.append((position, position, label))
    return spans


def proposition_arguments(tags: Sequence[str]) -> List[Argument]:
    """The arguments of one proposition: `C-X` pieces joined to the `X` before them."""
    arguments: List[Argument] = []
    latest: Dict[str, int] = {}  # label -> index in `arguments` of the latest argument with it
    for first, last, label in bio_spans(tags):
        if label.startswith(CONTINUATION):
            base = label[len(CONTINUATION) :]
            if base in latest:
                index = latest[base]
                arguments[index] = Argument(base, arguments[index].pieces + ((first, last),))
                continue
            label = base
        latest[label] = len(arguments)
        arguments.append(Argument(label, ((first, last),)))
    return arguments


def score_proposition(predicted_tags: Sequence[str], gold_tags: Sequence[str]) -> Dict[str, Counter]:
    """Correct, excess (predicted, not gold) and missed (gold, not predicted) arguments, by label."""
    counts = {"correct": Counter(), "excess": Counter(), "missed": Counter()}
    gold = {
        argument.boundaries: argument
        for argument in proposition_arguments(gold_tags)
        if argument.label not in EXCLUDED_LABELS
    }
    for argument in proposition_arguments(predicted_tags):
        if argument.label in EXCLUDED_LABELS:
            continue
        match = gold.get(argument.boundaries)
        if match is not None and match == argument:
            counts["correct"][argument.label] += 1
            del gold[argument.boundaries]
        else:
            counts["excess"][argument.label] += 1
    counts["missed"].update(argument.label for argument in gold.values())
    return counts


@Metric.register("conll2005_srl")
class Conll2005SrlScore(LabelCountsMetric):
    """
    `srl-eval.pl`'s precision, recall and F1 over propositions given as BIO tag sequences
    (predicted, gold), as `precision-overall`, `recall-overall`, `f1-measure-overall` (the keys of
    AllenNLP's span metrics, so `validation_metric: "+f1-measure-overall"` works) and the same
    three per argument label, e.g. `f1-measure-ARG0`.

    Registered as a `Metric` with name "conll2005_srl".
    """

    COUNTS = ("correct", "excess", "missed")

    def __call__(self, predicted_tags: List[List[str]], gold_tags: List[List[str]]) -> None:  # type: ignore
        for predicted, gold in zip(predicted_tags, gold_tags):
            for name, counter in score_proposition(predicted, gold).items():
                self._counts[name].update(counter)

    def scores(self, counts: Dict[str, Counter]) -> Dict[str, float]:
        """As `srl-eval.pl`'s `precrecf1`, as fractions rather than percentages."""
        predicted = counts["correct"] + counts["excess"]
        gold = counts["correct"] + counts["missed"]
        return label_scores(counts["correct"], predicted, gold)
