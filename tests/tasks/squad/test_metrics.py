"""The official SQuAD v1.1 exact match and F1, on cases worked out by hand."""

import pytest

from tasks.squad.metrics import SquadV1EmF1, exact_match, f1_score, normalize_answer


@pytest.mark.parametrize(
    "text, normalized",
    [
        ("The Denver Broncos", "denver broncos"),  # case and a leading article
        ("  New\tYork \n City ", "new york city"),  # any whitespace, collapsed
        ("Broncos!", "broncos"),
        ("an apple a day", "apple day"),  # articles anywhere, as whole words
        ("theater another", "theater another"),  # but not inside words
        ("1854-1855", "18541855"),  # punctuation is deleted, not turned into spaces
        ("U.S. (federal)", "us federal"),
        ("“Broncos”", "“broncos”"),  # curly quotes are not in string.punctuation: kept, as officially
        ("The", ""),
    ],
)
def test_normalisation_follows_the_official_script(text, normalized):
    assert normalize_answer(text) == normalized


def test_exact_match_compares_normalised_strings():
    assert exact_match("the Denver Broncos.", "Denver Broncos") == 1.0
    assert exact_match("Denver", "Denver Broncos") == 0.0
    assert exact_match("1854-1855", "1854 1855") == 0.0


def test_f1_is_over_bags_of_normalised_tokens():
    # prediction [denver, broncos, team] vs gold [denver, broncos]: P = 2/3, R = 1, F1 = 0.8
    assert f1_score("the Denver Broncos team", "Denver Broncos") == pytest.approx(0.8)
    # repeated tokens count once each: [cat, cat] vs [cat] share 1: P = 1/2, R = 1, F1 = 2/3
    assert f1_score("the cat cat", "a cat") == pytest.approx(2 / 3)
    # [another, apple] vs [apple]: P = 1/2, R = 1
    assert f1_score("another apple", "an apple") == pytest.approx(2 / 3)
    assert f1_score("Broncos", "Panthers") == 0.0


def test_an_answer_that_normalises_to_nothing_matches_exactly_but_scores_no_f1():
    # SQuAD v1.1: no shared tokens means F1 0, even when both sides are empty (v2.0 would give 1).
    assert exact_match("The", "a") == 1.0
    assert f1_score("The", "a") == 0.0


def test_the_metric_keeps_the_best_gold_answer_and_averages_over_questions():
    metric = SquadV1EmF1()
    metric("Broncos", ["Denver Broncos", "the Broncos"])  # EM 1, F1 1 (second gold)
    metric(["Carolina", "Santa Clara, California"], [["Carolina Panthers"], ["Levi's Stadium", "Santa Clara"]])
    # "Carolina" vs "Carolina Panthers": EM 0, F1 = 2 * 1 * 0.5 / 1.5 = 2/3
    # "Santa Clara, California" vs "Santa Clara": EM 0, P = 2/3, R = 1, F1 = 0.8
    assert metric.get_metric() == pytest.approx({"em": 1 / 3, "f1": (1 + 2 / 3 + 0.8) / 3})
    assert metric.get_metric(reset=True)["em"] == pytest.approx(1 / 3)
    assert metric.get_metric() == {"em": 0.0, "f1": 0.0}


def test_the_metric_refuses_a_question_without_gold_answers():
    with pytest.raises(ValueError, match="no gold answer"):
        SquadV1EmF1()(["Broncos"], [[]])
