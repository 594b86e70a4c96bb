"""
The CoNLL-2012 coreference metrics against scores worked out by hand from the reference scorer's
definitions (reference-coreference-scorers v8.01). Mentions are letters; clusters are lists.
"""

import pytest

from tasks.coref.metrics import Conll2012CorefScores, document_totals


def scores(key, response):
    metric = Conll2012CorefScores()
    metric([response], [key])
    return metric.get_metric()


def test_the_example_of_pradhan_et_al_2014():
    # Key {a b c} {d e f g}; response {a b} {c d} {f g h i} (Pradhan et al. 2014, Figure 1).
    key = [list("abc"), list("defg")]
    response = [list("ab"), list("cd"), list("fghi")]
    result = scores(key, response)
    # MUC recall: {a b c} is cut into {a b} {c}: 3 - 2 = 1; {d e f g} into {d} {e} {f g}: 4 - 3 = 1.
    # 2 of 2 + 3 = 5 key links. Precision: {a b} 1 part: 1; {c d} 2 parts: 0; {f g h i} into
    # {f g} {h} {i}: 1; 2 of 1 + 1 + 3 = 5 response links.
    assert result["muc_recall"] == pytest.approx(2 / 5)
    assert result["muc_precision"] == pytest.approx(2 / 5)
    assert result["muc_f1"] == pytest.approx(2 / 5)
    # B³ recall: (2²/3 + 1²/3 + 1²/4 + 2²/4) / 7 = (35/12) / 7 = 5/12.
    # B³ precision: (2²/2 + 1²/2 + 1²/2 + 2²/4) / 8 = 4/8.  F1 = 2 · 5/12 · 1/2 / (11/12) = 5/11.
    assert result["b3_recall"] == pytest.approx(5 / 12)
    assert result["b3_precision"] == pytest.approx(1 / 2)
    assert result["b3_f1"] == pytest.approx(5 / 11)
    # CEAF-e: φ4({a b c}, {a b}) = 4/5 and φ4({d e f g}, {f g h i}) = 4/8 align best (1.3; the
    # other pairings give 0.4 + 0.5 or 0.8 + 1/3). Recall 1.3/2, precision 1.3/3, F1 0.52.
    assert result["ceafe_recall"] == pytest.approx(0.65)
    assert result["ceafe_precision"] == pytest.approx(1.3 / 3)
    assert result["ceafe_f1"] == pytest.approx(0.52)
    assert result["coref_f1"] == pytest.approx((2 / 5 + 5 / 11 + 0.52) / 3)
    assert result["coref_precision"] == pytest.approx((2 / 5 + 1 / 2 + 1.3 / 3) / 3)
    assert result["coref_recall"] == pytest.approx((2 / 5 + 5 / 12 + 0.65) / 3)


def test_key_singletons_count_as_the_scorer_counts_them():
    # Key {a b} {c}: the singleton has no MUC link, but is a mention for B³ and an entity for CEAF-e.
    key = [list("ab"), ["c"]]
    without_singleton = scores(key, [list("ab")])
    # MUC: 1 of 1 link either way.
    assert without_singleton["muc_recall"] == without_singleton["muc_precision"] == 1.0
    # B³ recall: (2²/2 + 0 for c) / 3 mentions = 2/3; precision 2/2 = 1.
    assert without_singleton["b3_recall"] == pytest.approx(2 / 3)
    assert without_singleton["b3_precision"] == 1.0
    # CEAF-e: {a b} aligned with itself (1.0); recall 1/2 entities, precision 1/1.
    assert without_singleton["ceafe_recall"] == pytest.approx(1 / 2)
    assert without_singleton["ceafe_precision"] == 1.0
    # A response that also has the singleton gets everything.
    with_singleton = scores(key, [list("ab"), ["c"]])
    assert all(with_singleton[f"{name}_f1"] == pytest.approx(1.0) for name in ("muc", "b3", "ceafe"))


def test_twinless_mentions_count_without_artificial_twins():
    # Key {a b c}; response {a b x}: c is missing from the response, x from the key.
    result = scores([list("abc")], [list("abx")])
    # MUC: the key is cut into {a b} {c}: 1 of 2 links; the response into {a b} {x}: 1 of 2.
    assert result["muc_recall"] == pytest.approx(1 / 2)
    assert result["muc_precision"] == pytest.approx(1 / 2)
    # B³: a and b each 2/3 correct on both sides, c and x 0: (2²/3) / 3 = 4/9 both ways.
    assert result["b3_recall"] == pytest.approx(4 / 9)
    assert result["b3_precision"] == pytest.approx(4 / 9)
    # CEAF-e: φ4 = 2 · 2 / (3 + 3) = 2/3 over one entity on each side.
    assert result["ceafe_recall"] == pytest.approx(2 / 3)
    assert result["ceafe_precision"] == pytest.approx(2 / 3)


def test_ceaf_takes_the_best_alignment_not_the_greedy_one():
    # Key {a b c d} {e}; response {a b c e} {d}. φ4: {a b c d}~{a b c e} 6/8; {a b c d}~{d} 2/5;
    # {e}~{a b c e} 2/5; {e}~{d} 0. Greedy takes 6/8 first (total 0.75); the best is 2/5 + 2/5 = 0.8.
    result = scores([list("abcd"), ["e"]], [list("abce"), ["d"]])
    assert result["ceafe_recall"] == pytest.approx(0.8 / 2)
    assert result["ceafe_precision"] == pytest.approx(0.8 / 2)


def test_totals_are_summed_over_documents_before_dividing():
    metric = Conll2012CorefScores()
    # Document 1: key {a b c}, response {a b x} (MUC 1 of 2 links each way); document 2: key
    # {a b} {c}, response {a b} (MUC 1 of 1 each way). Summed: 2 of 3, not the mean of 1/2 and 1.
    metric([[list("abx")], [list("ab")]], [[list("abc")], [list("ab"), ["c"]]])
    result = metric.get_metric(reset=True)
    assert result["muc_recall"] == pytest.approx(2 / 3)
    assert result["muc_precision"] == pytest.approx(2 / 3)
    # B³ recall: (4/3 + 2) over 3 + 3 key mentions; precision (4/3 + 2) over 3 + 2 response mentions.
    assert result["b3_recall"] == pytest.approx((4 / 3 + 2) / 6)
    assert result["b3_precision"] == pytest.approx((4 / 3 + 2) / 5)
    # CEAF-e: 2/3 + 1 over 1 + 2 key entities and 1 + 1 response entities.
    assert result["ceafe_recall"] == pytest.approx((2 / 3 + 1) / 3)
    assert result["ceafe_precision"] == pytest.approx((2 / 3 + 1) / 2)
    assert metric.get_metric()["coref_f1"] == 0.0  # reset


def test_an_empty_response_scores_zero_without_dividing_by_zero():
    result = scores([list("ab")], [])
    assert all(value == 0.0 for value in result.values())


def test_spans_from_the_model_are_mentions_whatever_their_container():
    totals = document_totals([[(0, 1), (5, 5)]], [[[0, 1], [5, 5]]])
    assert totals["muc"] == (1, 1, 1, 1)


def test_a_mention_in_two_clusters_is_refused():
    with pytest.raises(ValueError, match=r"mention \(3, 4\) is in the response twice"):
        document_totals([[(3, 4), (6, 6)]], [[(3, 4), (6, 6)], [(3, 4), (8, 8)]])
