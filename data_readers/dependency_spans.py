"""
Argument spans from head-marked arguments: Universal PropBank marks each argument of a predicate
on one word, the head of the argument in the dependency tree; span-based SRL (CoNLL-2005/2012,
He et al. 2017, the ELMo paper) labels word spans. `argument_spans` turns one into the other.

The rule (docs/srl.md, "From heads to spans"), for a predicate p and its arguments with heads h:

1. An argument's words are the subtree of h in the basic dependency tree (CoNLL-U column 7),
   without descending into p or into the head of any other argument of p: PropBank arguments of
   one predicate never overlap, and the predicate is never part of its own argument (a relative
   clause or modifier that holds p is cut away, leaving e.g. "jurists" for "retiring jurists").
2. Punctuation (UPOS `PUNCT`) at either edge is dropped, never the head itself: UD attaches
   commas and full stops to the head of the enclosing phrase, where PropBank's constituents
   usually leave them out.
3. If the words are not contiguous (a cut in the middle, or a non-projective tree), the span is
   the longest contiguous run of them that contains h; the other words are left unlabelled and
   counted (`ConversionCounts.words_dropped`).
4. The predicate's own word is always `V`, whatever its own column says there (a handful of
   frames mark `V` on a particle and leave the predicate's word blank or `C-V`). Other words a
   column marks `V` or `C-V` (particles: "blow *up*", "break *through*") are one-word `C-V`
   continuations, the scheme CoNLL uses for discontinuous predicates, never grown to subtrees.
"""

from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Set, Tuple

PUNCTUATION = "PUNCT"
PREDICATE_LABEL = "V"
CONTINUED_PREDICATE_LABEL = "C-V"

# (first word, last word, label), both inclusive: the convention of AllenNLP's span utilities.
LabelledSpan = Tuple[int, int, str]


@dataclass
class ConversionCounts:
    """What the conversion did, summed over arguments (the reader logs them)."""

    arguments: int = 0
    non_contiguous: int = 0  # arguments whose words were not one contiguous run (rule 3)
    words_dropped: int = 0  # words left out by rule 3
    edge_punctuation_trimmed: int = 0  # arguments that lost punctuation at an edge (rule 2)
    predicate_in_subtree: int = 0  # arguments whose subtree held the predicate, cut away (rule 1)
    continued_predicates: int = 0  # words other than the predicate's own marked V or C-V (rule 4)
    predicate_cell_relabelled: int = 0  # predicates whose own column did not say V on their word (rule 4)
    by_label: Counter = field(default_factory=Counter)

    def add(self, other: "ConversionCounts") -> None:
        for name in (
            "arguments",
            "non_contiguous",
            "words_dropped",
            "edge_punctuation_trimmed",
            "predicate_in_subtree",
            "continued_predicates",
            "predicate_cell_relabelled",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.by_label.update(other.by_label)


def children_of(heads: Sequence[int]) -> List[List[int]]:
    """`heads[i]` is word i's head (0-based), or -1 for the root: the dependents of each word."""
    children: List[List[int]] = [[] for _ in heads]
    for word, head in enumerate(heads):
        if head >= 0:
            children[head].append(word)
    return children


def argument_spans(
    heads: Sequence[int],
    upos: Sequence[str],
    predicate: int,
    arguments: Sequence[Tuple[int, str]],
    counts: Optional[ConversionCounts] = None,
) -> List[LabelledSpan]:
    """
    The labelled spans of `predicate`'s frame, sorted, the predicate's own `V` included.

    `heads` are 0-based head indices (-1: root), `upos` the words' UPOS tags, `arguments` the
    `(head word, label)` pairs of the predicate's column (its `V` marks included).
    """
    counts = counts if counts is not None else ConversionCounts()
    if dict(arguments).get(predicate) != PREDICATE_LABEL:
        counts.predicate_cell_relabelled += 1
    arguments = [(head, label) for head, label in arguments if head != predicate]
    children = children_of(heads)
    spans: List[LabelledSpan] = [(predicate, predicate, PREDICATE_LABEL)]
    marked = {head for head, _ in arguments} | {predicate}
    for head, label in arguments:
        if label in (PREDICATE_LABEL, CONTINUED_PREDICATE_LABEL):
            counts.continued_predicates += 1
            spans.append((head, head, CONTINUED_PREDICATE_LABEL))
            continue
        counts.arguments += 1
        counts.by_label[label] += 1
        words = _subtree(head, children, blocked=marked - {head})
        if _reaches(head, predicate, children):
            counts.predicate_in_subtree += 1
        trimmed = _without_edge_punctuation(sorted(words), head, upos)
        if len(trimmed) < len(words):
            counts.edge_punctuation_trimmed += 1
        first, last = _run_around(head, set(trimmed))
        if last - first + 1 < len(trimmed):
            counts.non_contiguous += 1
            counts.words_dropped += len(trimmed) - (last - first + 1)
        spans.append((first, last, label))
    return sorted(spans)


def spans_to_bio(length: int, spans: Sequence[LabelledSpan]) -> List[str]:
    """BIO tags (IOB2) for non-overlapping inclusive spans."""
    tags = ["O"] * length
    for first, last, label in spans:
        if any(tag != "O" for tag in tags[first : last + 1]):
            raise ValueError(f"span {first}-{last} {label} overlaps another span")
        tags[first] = "B-" + label
        for position in range(first + 1, last + 1):
            tags[position] = "I-" + label
    return tags


def _subtree(root: int, children: List[List[int]], blocked: Set[int]) -> Set[int]:
    words, stack = {root}, [root]
    while stack:
        for child in children[stack.pop()]:
            if child not in blocked and child not in words:
                words.add(child)
                stack.append(child)
    return words


def _reaches(root: int, target: int, children: List[List[int]]) -> bool:
    return target in _subtree(root, children, blocked=set())


def _without_edge_punctuation(words: List[int], head: int, upos: Sequence[str]) -> List[int]:
    start, end = 0, len(words)
    while words[start] != head and upos[words[start]] == PUNCTUATION:
        start += 1
    while words[end - 1] != head and upos[words[end - 1]] == PUNCTUATION:
        end -= 1
    return words[start:end]


def _run_around(head: int, words: Set[int]) -> Tuple[int, int]:
    first = last = head
    while first - 1 in words:
        first -= 1
    while last + 1 in words:
        last += 1
    return first, last


def dependency_depths(heads: Sequence[int]) -> Dict[int, int]:
    """Each word's distance from the root; raises `ValueError` on a cycle."""
    depths: Dict[int, int] = {}
    for word in range(len(heads)):
        path = []
        current = word
        while current >= 0 and current not in depths:
            if current in path:
                raise ValueError(f"the heads form a cycle through word {current + 1}")
            path.append(current)
            current = heads[current]
        depth = depths[current] if current >= 0 else -1
        for step in reversed(path):
            depth += 1
            depths[step] = depth
    return depths
