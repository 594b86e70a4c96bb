"""
Contextual similarity (`allennlp elmo-similarity`): one word followed through several sentences,
and the cosine similarity of its vectors between every pair of sentences, for each view (each
layer, their average, a given mix). The character layer gives one word type the same vector in
every context (cosine 1); the biLSTM layers tell the contexts apart.
"""

from typing import Dict, List, NamedTuple, Optional, Sequence

import numpy
from allennlp.common.checks import ConfigurationError

from tasks.elmo.frozen_bilm import FrozenBilm
from tasks.inspect.vectors import layer_stacks, unit_rows, view_title, views


class Similarities(NamedTuple):
    sentences: List[List[str]]
    positions: List[int]  # of the word followed, in each sentence (0-based)
    matrices: Dict[str, numpy.ndarray]  # view -> (sentences, sentences) cosines


def word_positions(
    sentences: Sequence[Sequence[str]], word: Optional[str] = None, positions: Optional[Sequence[int]] = None
) -> List[int]:
    """
    Where the followed word is in each sentence: `positions` as given (0-based, one per
    sentence), or the first token equal to `word`. A sentence without it is an error naming it.
    """
    if (word is None) == (positions is None):
        raise ConfigurationError("give either the word to follow or its position in each sentence")
    if positions is not None:
        if len(positions) != len(sentences):
            raise ConfigurationError(
                f"{len(sentences)} sentences but {len(positions)} positions: give one position per sentence"
            )
        for number, (tokens, position) in enumerate(zip(sentences, positions), start=1):
            if not 0 <= position < len(tokens):
                raise ConfigurationError(
                    f"sentence {number} has {len(tokens)} tokens: position {position} is outside it (positions count "
                    "from 0)"
                )
        return list(positions)
    found = []
    for number, tokens in enumerate(sentences, start=1):
        if word not in tokens:
            raise ConfigurationError(f"sentence {number} has no token {word!r}: {' '.join(tokens)}")
        found.append(list(tokens).index(word))
    return found


def contextual_similarity(
    bilm: FrozenBilm,
    sentences: Sequence[Sequence[str]],
    positions: Sequence[int],
    mix_weights: Optional[Sequence[float]] = None,
) -> Similarities:
    """The cosine similarities of the words at `positions` across `sentences`, per view."""
    if len(sentences) < 2:
        raise ConfigurationError("give at least two sentences to compare")
    stacks = dict(layer_stacks(bilm, sentences))
    words = numpy.stack(
        [stacks[index][:, position] for index, position in enumerate(positions)], axis=1
    )  # (layers, sentences, dim)
    matrices = {}
    for name, vectors in views(words, mix_weights).items():
        unit = unit_rows(vectors)
        matrices[name] = unit @ unit.T
    return Similarities([list(tokens) for tokens in sentences], list(positions), matrices)


def similarity_table(similarities: Similarities) -> str:
    """The matrices as text: the sentences with the followed word in [brackets], then one matrix per view."""
    lines = ["Sentences (the word followed in [brackets]):"]
    for number, (tokens, position) in enumerate(zip(similarities.sentences, similarities.positions), start=1):
        marked = tokens[:position] + [f"[{tokens[position]}]"] + tokens[position + 1 :]
        lines.append(f"  S{number}: {' '.join(marked)}")
    count = len(similarities.sentences)
    header = "      " + "".join(f"{'S' + str(number):>8}" for number in range(1, count + 1))
    for name, matrix in similarities.matrices.items():
        off_diagonal = matrix[~numpy.eye(count, dtype=bool)]
        lines += [
            "",
            f"{view_title(name)}: cosine similarity (mean off the diagonal {off_diagonal.mean():.4f})",
            header,
        ]
        for row in range(count):
            lines.append(f"{'S' + str(row + 1):>6}" + "".join(f"{value:8.4f}" for value in matrix[row]))
    return "\n".join(lines)


def similarity_json(similarities: Similarities) -> Dict:
    return {
        "sentences": [" ".join(tokens) for tokens in similarities.sentences],
        "words": [tokens[position] for tokens, position in zip(similarities.sentences, similarities.positions)],
        "positions": similarities.positions,
        "cosine": {name: numpy.round(matrix, 6).tolist() for name, matrix in similarities.matrices.items()},
    }
