"""The head-to-span rule of data_readers/dependency_spans.py, one rule at a time, on hand-built trees."""

import pytest

from data_readers.dependency_spans import ConversionCounts, argument_spans, dependency_depths, spans_to_bio


def tree(*words):
    """`(heads, upos)` from `(head, upos)` pairs with 1-based heads (0: root), as CoNLL-U writes them."""
    return [head - 1 for head, _ in words], [upos for _, upos in words]


def test_an_argument_is_its_heads_whole_subtree():
    # the(0) old(1) bridge(2) fell(3) into(4) the(5) river(6)
    heads, upos = tree((3, "DET"), (3, "ADJ"), (4, "NOUN"), (0, "VERB"), (7, "ADP"), (7, "DET"), (4, "NOUN"))
    spans = argument_spans(heads, upos, 3, [(2, "ARG1"), (3, "V"), (6, "ARG4")])
    assert spans == [(0, 2, "ARG1"), (3, 3, "V"), (4, 6, "ARG4")]


def test_the_subtree_stops_at_another_arguments_head():
    # they(0) doubted(1) the(2) claim(3) of(4) fraud(5): "fraud" marked as an argument of its own
    heads, upos = tree((2, "PRON"), (0, "VERB"), (4, "DET"), (2, "NOUN"), (6, "ADP"), (4, "NOUN"))
    counts = ConversionCounts()
    spans = argument_spans(heads, upos, 1, [(0, "ARG0"), (3, "ARG1"), (5, "ARG2")], counts)
    assert spans == [(0, 0, "ARG0"), (1, 1, "V"), (2, 3, "ARG1"), (4, 5, "ARG2")]
    assert counts.non_contiguous == 0


def test_a_subtree_holding_the_predicate_loses_the_predicates_subtree():
    # the(0) man(1) who(2) left(3) early(4) smiled(5): "man" is ARG0 of "left"
    heads, upos = tree((2, "DET"), (6, "NOUN"), (4, "PRON"), (2, "VERB"), (4, "ADV"), (0, "VERB"))
    counts = ConversionCounts()
    spans = argument_spans(heads, upos, 3, [(1, "ARG0"), (2, "R-ARG0"), (4, "ARGM-TMP")], counts)
    assert spans == [(0, 1, "ARG0"), (2, 2, "R-ARG0"), (3, 3, "V"), (4, 4, "ARGM-TMP")]
    assert counts.predicate_in_subtree == 1


def test_punctuation_at_the_edges_is_trimmed_inside_it_stays():
    # ,(0) Rome(1) ,(2) Paris(3) ,(4) all attached to "Paris"'s coordination; "fell"(5)
    heads, upos = tree((4, "PUNCT"), (4, "PROPN"), (4, "PUNCT"), (6, "PROPN"), (4, "PUNCT"), (0, "VERB"))
    counts = ConversionCounts()
    spans = argument_spans(heads, upos, 5, [(3, "ARG1")], counts)
    assert spans == [(1, 3, "ARG1"), (5, 5, "V")]
    assert counts.edge_punctuation_trimmed == 1


def test_a_punctuation_head_is_never_trimmed():
    heads, upos = tree((2, "PUNCT"), (0, "VERB"))
    assert argument_spans(heads, upos, 1, [(0, "ARGM-DIS")]) == [(0, 0, "ARGM-DIS"), (1, 1, "V")]


def test_a_non_contiguous_argument_keeps_the_run_around_its_head():
    # the(0) newly(1) elected(2) mayor(3) resigned(4): "mayor" is ARG1 of "elected"
    heads, upos = tree((4, "DET"), (3, "ADV"), (4, "VERB"), (5, "NOUN"), (0, "VERB"))
    counts = ConversionCounts()
    spans = argument_spans(heads, upos, 2, [(1, "ARGM-TMP"), (3, "ARG1")], counts)
    assert spans == [(1, 1, "ARGM-TMP"), (2, 2, "V"), (3, 3, "ARG1")]
    assert (counts.non_contiguous, counts.words_dropped) == (1, 1)


def test_a_non_projective_subtree_is_cut_to_the_run_around_its_head():
    # a(0) b(1) c(2) d(3) v(4): "b" heads "a" and "d", but "c", between them, hangs from "v"
    heads, upos = tree((2, "DET"), (5, "NOUN"), (5, "ADV"), (2, "NOUN"), (0, "VERB"))
    counts = ConversionCounts()
    spans = argument_spans(heads, upos, 4, [(1, "ARG1")], counts)
    assert spans == [(0, 1, "ARG1"), (4, 4, "V")]
    assert (counts.non_contiguous, counts.words_dropped) == (1, 1)


def test_particles_are_one_word_continuations_of_the_predicate():
    # they(0) broke(1) through(2) the(3) wall(4); "through" heads "the wall" in UD, marked V
    heads, upos = tree((2, "PRON"), (0, "VERB"), (5, "ADP"), (5, "DET"), (2, "NOUN"))
    counts = ConversionCounts()
    spans = argument_spans(heads, upos, 1, [(0, "ARG0"), (1, "V"), (2, "V"), (4, "ARG1")], counts)
    assert spans == [(0, 0, "ARG0"), (1, 1, "V"), (2, 2, "C-V"), (3, 4, "ARG1")]
    assert counts.continued_predicates == 1


def test_the_predicates_own_word_is_v_whatever_its_cell_says():
    # two(0) -(1) timing(2): the frame marks V on "two" and C-V on the predicate "timing"
    heads, upos = tree((3, "NUM"), (3, "PUNCT"), (0, "NOUN"))
    counts = ConversionCounts()
    spans = argument_spans(heads, upos, 2, [(0, "V"), (2, "C-V")], counts)
    assert spans == [(0, 0, "C-V"), (2, 2, "V")]
    assert counts.predicate_cell_relabelled == 1


def test_spans_to_bio_and_its_refusal_of_overlaps():
    assert spans_to_bio(5, [(0, 1, "ARG0"), (2, 2, "V"), (4, 4, "C-V")]) == ["B-ARG0", "I-ARG0", "B-V", "O", "B-C-V"]
    with pytest.raises(ValueError, match="overlaps"):
        spans_to_bio(3, [(0, 1, "ARG0"), (1, 2, "ARG1")])


def test_a_cycle_is_not_a_tree():
    assert dependency_depths([-1, 0, 1]) == {0: 0, 1: 1, 2: 2}
    with pytest.raises(ValueError, match="cycle through word"):
        dependency_depths([1, 2, 0])
