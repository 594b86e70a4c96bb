"""
The CoNLL-2005 score (tasks/srl/metrics.py): hand-worked propositions, agreement with the official
srl-eval.pl (through allennlp-models' SrlEvalScorer) on random ones, and the cases where AllenNLP's
`span_f1` (SpanBasedF1Measure, what AllenNLP's SRL model reported until allenai/allennlp#3164,
August 2019) counts differently.
"""

import random
import shutil

import pytest
import torch
from allennlp.data import Vocabulary
from allennlp.training.metrics import SpanBasedF1Measure
from allennlp_models.structured_prediction.metrics.srl_eval_scorer import SrlEvalScorer
from allennlp_models.structured_prediction.models.srl import convert_bio_tags_to_conll_format

from tasks.srl.metrics import Argument, Conll2005SrlScore, bio_spans, proposition_arguments, score_proposition


def official(predicted, gold):
    """`(correct, excess, missed)` summed over labels, by our implementation."""
    counts = score_proposition(predicted, gold)
    return tuple(sum(counts[name].values()) for name in ("correct", "excess", "missed"))


def allennlp_span_f1(predicted_sequences, gold_sequences):
    """AllenNLP's `span_f1` as its SRL model configured it (V ignored), fed these tags as one-hot scores."""
    vocabulary = Vocabulary()
    for tag in sorted({tag for sequence in predicted_sequences + gold_sequences for tag in sequence}):
        vocabulary.add_token_to_namespace(tag, "labels")
    metric = SpanBasedF1Measure(vocabulary, tag_namespace="labels", ignore_classes=["V"])
    size = vocabulary.get_vocab_size("labels")
    for predicted, gold in zip(predicted_sequences, gold_sequences):
        ids = torch.tensor([[vocabulary.get_token_index(tag, "labels") for tag in predicted]])
        gold_ids = torch.tensor([[vocabulary.get_token_index(tag, "labels") for tag in gold]])
        metric(torch.nn.functional.one_hot(ids, size).float(), gold_ids)
    return metric.get_metric()


def test_exact_matches_count_and_the_predicate_does_not():
    gold = ["B-ARG0", "I-ARG0", "B-V", "B-ARG1", "I-ARG1", "O"]
    assert official(gold, gold) == (2, 0, 0)


def test_a_wrong_boundary_or_label_is_one_excess_and_one_missed():
    gold = ["B-ARG0", "B-V", "B-ARG1", "I-ARG1"]
    assert official(["B-ARG0", "B-V", "B-ARG1", "O"], gold) == (1, 1, 1)
    counts = score_proposition(["B-ARG0", "B-V", "B-ARG2", "I-ARG2"], gold)
    assert counts["excess"] == {"ARG2": 1} and counts["missed"] == {"ARG1": 1}


def test_a_continuation_joins_the_argument_before_it():
    tags = ["B-ARG1", "O", "B-V", "B-C-ARG1", "I-C-ARG1", "B-ARG1", "B-C-ARG1"]
    assert proposition_arguments(tags) == [
        Argument("ARG1", ((0, 0), (3, 4))),
        Argument("V", ((2, 2),)),
        Argument("ARG1", ((5, 5), (6, 6))),
    ]
    gold = ["B-ARG1", "O", "B-V", "B-C-ARG1", "I-C-ARG1"]
    assert official(gold, gold) == (1, 0, 0)  # one argument, not two
    assert official(["B-ARG1", "O", "B-V", "B-C-ARG1", "O"], gold) == (0, 1, 1)  # one piece wrong: all wrong


def test_a_continuation_without_its_argument_is_that_argument():
    assert proposition_arguments(["B-C-ARG1", "B-V", "B-C-V"]) == [
        Argument("ARG1", ((0, 0),)),
        Argument("V", ((1, 1), (2, 2))),
    ]
    assert official(["B-C-ARG1", "B-V"], ["B-ARG1", "B-V"]) == (1, 0, 0)


def test_references_are_arguments_of_their_own_and_c_v_is_the_predicate():
    gold = ["B-ARG0", "B-R-ARG0", "B-V", "B-C-V", "B-ARG1"]
    counts = score_proposition(["B-ARG0", "O", "B-V", "O", "B-ARG1"], gold)
    assert counts["correct"] == {"ARG0": 1, "ARG1": 1} and counts["missed"] == {"R-ARG0": 1}
    assert not counts["excess"]  # the missing C-V is part of V: not counted


def test_an_invalid_i_tag_opens_a_span_as_the_script_reads_it():
    assert bio_spans(["O", "I-ARG0", "I-ARG0", "B-V", "I-ARG1", "I-ARG2"]) == [
        (1, 2, "ARG0"),
        (3, 3, "V"),
        (4, 4, "ARG1"),
        (5, 5, "ARG2"),
    ]
    assert official(["O", "I-ARG0", "I-ARG0", "B-V"], ["O", "B-ARG0", "I-ARG0", "B-V"]) == (1, 0, 0)


def test_metric_reports_micro_averages_and_per_label_scores():
    metric = Conll2005SrlScore()
    metric(
        [["B-ARG0", "B-V", "B-ARG1"], ["B-ARG0", "B-V", "O"]],
        [["B-ARG0", "B-V", "B-ARG1"], ["B-ARG1", "B-V", "B-ARG2"]],
    )
    scores = metric.get_metric(reset=True)
    # correct 2 (ARG0, ARG1), excess 1 (ARG0), missed 2 (ARG1, ARG2)
    assert scores["precision-overall"] == pytest.approx(2 / 3)
    assert scores["recall-overall"] == pytest.approx(2 / 4)
    assert scores["f1-measure-overall"] == pytest.approx(2 * (2 / 3) * (1 / 2) / (2 / 3 + 1 / 2))
    assert scores["precision-ARG0"] == pytest.approx(1 / 2) and scores["recall-ARG2"] == 0.0
    assert metric.get_metric()["f1-measure-overall"] == 0.0  # reset


LABELS = ["ARG0", "ARG1", "ARG2", "ARGM-TMP", "ARGM-ADV", "C-ARG1", "C-ARG0", "R-ARG0", "R-ARG1", "V", "C-V"]


def random_tags(rng, length):
    tags = []
    for _ in range(length):
        roll = rng.random()
        label = rng.choice(LABELS)
        if roll < 0.35:
            tags.append("O")
        elif roll < 0.65 or not tags or tags[-1] == "O":
            tags.append(("B-" if rng.random() < 0.9 else "I-") + label)  # an I- here is invalid BIO
        else:
            tags.append("I-" + tags[-1][2:] if rng.random() < 0.8 else "I-" + label)
    return tags


@pytest.mark.skipif(shutil.which("perl") is None, reason="perl is needed to run the official srl-eval.pl")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_counts_equal_the_official_script_on_random_propositions(seed):
    rng = random.Random(seed)
    gold_sequences, predicted_sequences, sentences, verbs = [], [], [], []
    for _ in range(300):
        length = rng.randint(2, 14)
        gold = random_tags(rng, length)
        predicted = list(gold) if rng.random() < 0.3 else random_tags(rng, length)
        for _ in range(rng.randint(0, 2)):  # near misses
            position = rng.randrange(length)
            predicted[position] = rng.choice(["O", "B-" + rng.choice(LABELS), "I-" + rng.choice(LABELS)])
        gold_sequences.append(gold)
        predicted_sequences.append(predicted)
        sentences.append([f"w{index}" for index in range(length)])
        verbs.append(rng.randrange(length))
    script = SrlEvalScorer(ignore_classes=["V"])
    script(
        verbs,
        sentences,
        [convert_bio_tags_to_conll_format(t) for t in predicted_sequences],
        [convert_bio_tags_to_conll_format(t) for t in gold_sequences],
    )
    ours = Conll2005SrlScore()
    ours(predicted_sequences, gold_sequences)
    for name, theirs in (
        ("correct", script._true_positives),
        ("excess", script._false_positives),
        ("missed", script._false_negatives),
    ):
        assert dict(ours._counts[name]) == {label: count for label, count in theirs.items() if count}, name
    assert ours.get_metric()["f1-measure-overall"] == pytest.approx(script.get_metric()["f1-measure-overall"])


# Where AllenNLP's span_f1 counts differently: its `_handle_continued_spans` merges every span whose
# label *contains* the continued label (a substring test) into one span from the first start to the
# last end, and it only ignores "V", not "C-V".


def test_span_f1_lets_a_c_v_swallow_every_label_containing_v():
    gold = ["B-ARG0", "B-V", "B-C-V", "B-ARGM-ADV", "O"]
    predicted = ["B-ARG0", "B-V", "B-C-V", "B-ARGM-MNR", "O"]
    assert official(predicted, gold) == (1, 1, 1)  # P = R = 1/2
    theirs = allennlp_span_f1([predicted], [gold])
    # gold: ARG0 and a "V" span from C-V to ARGM-ADV ("V" in "ARGM-ADV"); predicted: ARG0, "V" (C-V), ARGM-MNR
    assert theirs["precision-overall"] == pytest.approx(1 / 3) and theirs["recall-overall"] == pytest.approx(1 / 2)


def test_span_f1_merges_a_reference_into_the_argument_it_refers_to():
    gold = ["B-ARG1", "I-ARG1", "B-R-ARG1", "B-V", "B-C-ARG1"]
    predicted = ["B-ARG1", "I-ARG1", "B-R-ARG0", "B-V", "B-C-ARG1"]
    assert official(predicted, gold) == (1, 1, 1)  # the R-ARG1 is missed
    theirs = allennlp_span_f1([predicted], [gold])
    assert theirs["recall-overall"] == pytest.approx(1.0)  # "ARG1" in "R-ARG1": merged away, never missed


def test_span_f1_compares_a_discontinuous_argument_by_its_outer_boundaries_only():
    gold = ["B-ARG1", "I-ARG1", "O", "B-V", "B-C-ARG1"]
    predicted = ["B-ARG1", "O", "O", "B-V", "B-C-ARG1"]
    assert official(predicted, gold) == (0, 1, 1)
    assert allennlp_span_f1([predicted], [gold])["f1-measure-overall"] == pytest.approx(1.0)


def test_on_plain_propositions_both_agree_invalid_sequences_included():
    gold = [["B-ARG0", "I-ARG0", "B-V", "B-ARG1"], ["O", "B-V", "B-ARGM-TMP", "I-ARGM-TMP"]]
    predicted = [["B-ARG0", "I-ARG1", "B-V", "B-ARG1"], ["O", "B-V", "O", "I-ARGM-TMP"]]
    ours = Conll2005SrlScore()
    ours(predicted, gold)
    theirs = allennlp_span_f1(predicted, gold)
    for key in ("precision-overall", "recall-overall", "f1-measure-overall"):
        assert ours.get_metric()[key] == pytest.approx(theirs[key])


def test_allennlp_srl_model_scored_the_per_word_argmax_not_the_decoded_tags(tiny_srl_model):
    # Until allenai/allennlp#3164 (August 2019), SemanticRoleLabeler.forward fed span_f1 its class
    # probabilities, whose per-word argmax can be an invalid sequence; only `decode` (the predictor)
    # ran constrained Viterbi. Here the argmax breaks a four-word ARG1 in three; our model's decoding keeps it whole.
    labels = ["O", "B-V", "B-ARG1", "I-ARG1", "I-ARG2"]
    probabilities = torch.tensor(
        [
            [0.01, 0.97, 0.01, 0.005, 0.005],
            [0.05, 0.01, 0.80, 0.10, 0.04],
            [0.05, 0.01, 0.04, 0.60, 0.30],
            [0.05, 0.01, 0.04, 0.40, 0.50],  # argmax I-ARG2: invalid after I-ARG1
            [0.05, 0.01, 0.04, 0.60, 0.30],
        ]
    )
    gold = ["B-V", "B-ARG1", "I-ARG1", "I-ARG1", "I-ARG1"]
    argmax = [labels[index] for index in probabilities.argmax(dim=-1).tolist()]
    model = tiny_srl_model(labels)
    path = model.decode(probabilities.log()[None], torch.ones(1, len(probabilities), dtype=torch.bool))[0]
    decoded = [model.vocab.get_token_from_index(index, "labels") for index in path]
    assert argmax == ["B-V", "B-ARG1", "I-ARG1", "I-ARG2", "I-ARG1"]
    assert decoded == gold
    assert allennlp_span_f1([argmax], [gold])["f1-measure-overall"] == 0.0  # three wrong spans for one
    assert official(decoded, gold) == (1, 0, 0)
