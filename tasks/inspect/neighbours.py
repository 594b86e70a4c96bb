"""
Nearest neighbours in context (`allennlp elmo-index`, `allennlp elmo-neighbours`), the paper's
Table 4: the tokens of a corpus whose vectors are closest (cosine) to one word of a given
sentence, with their sentences, for each view (each layer, their average, a given mix).

The index is a directory holding the corpus's tokenised sentences (`sentences.jsonl`) and
`index.json` (the biLM, its fingerprint and the activation cache). The vectors themselves live
in the suite's activation cache (`tasks.elmo.cache`), filled once by `elmo-index` and shared with
training runs and `allennlp elmo-cache`: no second copy is written.
"""

import json
import logging
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional, Sequence

import numpy
from allennlp.common.checks import ConfigurationError
from allennlp.modules.elmo import batch_to_ids

from tasks.elmo.cache import sentence_key
from tasks.elmo.fill import fill
from tasks.elmo.frozen_bilm import FrozenBilm, cache_directory_for
from tasks.inspect.vectors import layer_stacks, unit_rows, views

logger = logging.getLogger(__name__)

FORMAT_VERSION = 1
INDEX_FILE, SENTENCES_FILE = "index.json", "sentences.jsonl"


class Neighbour(NamedTuple):
    similarity: float
    sentence: int  # index into the corpus's non-empty sentences
    position: int
    tokens: List[str]


def build_index(
    sentences: Sequence[Sequence[str]],
    directory: str,
    options_file: str,
    weight_file: str,
    cache_directory: Optional[str],
    lstm_state: str = "zero",
    batch_size: int = 64,
) -> Dict:
    """
    Fills the activation cache under `cache_directory` with the biLM's layers for the non-empty
    `sentences` and writes the index to `directory`; returns index.json's content.
    """
    if lstm_state == "carried":
        raise ConfigurationError(
            "an index needs each sentence's vectors independent of the others: use lstm_state 'zero' or 'warm_up'"
        )
    if cache_directory_for(cache_directory, lstm_state) is None:
        raise ConfigurationError(
            "the neighbour index keeps its vectors in the ELMo activation cache: set ELMO_CACHE_DIR to a directory, "
            "not 'none'"
        )
    directory = Path(directory)
    if (directory / INDEX_FILE).exists():
        raise ConfigurationError(f"{directory} already holds an index: remove it, or choose another directory")
    kept = [list(tokens) for tokens in sentences if tokens]
    if len(kept) < len(sentences):
        logger.info("%d empty lines left out of the index", len(sentences) - len(kept))
    if not kept:
        raise ConfigurationError("the corpus has no non-empty line to index")
    bilm = FrozenBilm(options_file, weight_file, lstm_state, cache_directory)
    character_ids = {}
    for tokens in kept:
        ids = batch_to_ids([tokens])[0]
        character_ids.setdefault(sentence_key(ids), ids.tolist())
    report = fill(bilm, character_ids, batch_size, description="indexing")
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / SENTENCES_FILE, "w", encoding="utf-8") as output:
        for tokens in kept:
            output.write(json.dumps(tokens, ensure_ascii=False) + "\n")
    index = {
        "format": FORMAT_VERSION,
        "options_file": str(Path(options_file).resolve()),
        "weight_file": str(Path(weight_file).resolve()),
        "lstm_state": lstm_state,
        "fingerprint": bilm.fingerprint,
        "cache_directory": str(bilm.cache.path.parent.resolve()),
        "cache_dtype": numpy.dtype(bilm.cache.dtype).name,
        "sentences": len(kept),
        "tokens": sum(len(tokens) for tokens in kept),
        "empty_lines_left_out": len(sentences) - len(kept),
    }
    (directory / INDEX_FILE).write_text(json.dumps(index, indent=2) + "\n", encoding="utf-8")
    logger.info(
        "Indexed %d sentences (%d tokens) in %s; %d were in the cache already, %d computed in %.1f s",
        index["sentences"],
        index["tokens"],
        bilm.cache.path,
        report.already_stored,
        report.computed,
        report.seconds,
    )
    return index


class NeighbourIndex:
    """An index written by `build_index`, opened with the biLM and cache it names."""

    def __init__(self, directory: str) -> None:
        self.directory = Path(directory)
        path = self.directory / INDEX_FILE
        if not path.exists():
            raise ConfigurationError(
                f"{self.directory} holds no neighbour index ({INDEX_FILE}): build one with allennlp elmo-index"
            )
        self.settings = json.loads(path.read_text(encoding="utf-8"))
        if self.settings.get("format") != FORMAT_VERSION:
            raise ConfigurationError(
                f"{path} is format {self.settings.get('format')}, expected {FORMAT_VERSION}: build the index again"
            )
        self.bilm = FrozenBilm(
            self.settings["options_file"],
            self.settings["weight_file"],
            self.settings["lstm_state"],
            self.settings["cache_directory"],
            self.settings["cache_dtype"],
        )
        if self.bilm.fingerprint != self.settings["fingerprint"]:
            raise ConfigurationError(
                f"the biLM files named in {path} have changed since the index was built: build it again"
            )
        with open(self.directory / SENTENCES_FILE, encoding="utf-8") as lines:
            self.sentences = [json.loads(line) for line in lines]

    def nearest(
        self,
        tokens: Sequence[str],
        position: int,
        top: int = 5,
        mix_weights: Optional[Sequence[float]] = None,
        batch_size: int = 256,
    ) -> Dict[str, List[Neighbour]]:
        """
        The `top` corpus tokens nearest to `tokens[position]`, per view; the query token itself (if
        indexed) left out.
        """
        if not 0 <= position < len(tokens):
            raise ConfigurationError(
                f"the sentence has {len(tokens)} tokens: position {position} is outside it (positions count from 0)"
            )
        ((_, query_layers),) = layer_stacks(self.bilm, [list(tokens)])
        queries = {name: unit_rows(vectors[position]) for name, vectors in views(query_layers, mix_weights).items()}
        misses_before = self.bilm.cache.misses
        scores: Dict[str, List[numpy.ndarray]] = {name: [] for name in queries}
        owners = []  # (sentence, position) of each score, in the same order
        for index, layers in layer_stacks(self.bilm, self.sentences, batch_size):
            for name, vectors in views(layers, mix_weights).items():
                scores[name].append(unit_rows(vectors) @ queries[name])
            owners += [(index, token) for token in range(layers.shape[1])]
        if self.bilm.cache.misses > misses_before:
            logger.warning(
                "%d indexed sentences were missing from the cache and were computed again",
                self.bilm.cache.misses - misses_before,
            )
        owners_array = numpy.asarray(owners)
        itself = [
            row
            for row, (index, token) in enumerate(owners)
            if token == position and self.sentences[index] == list(tokens)
        ]
        result = {}
        for name, parts in scores.items():
            flat = numpy.concatenate(parts)
            flat[itself] = -numpy.inf
            best = numpy.argsort(-flat, kind="stable")[:top]
            result[name] = [
                Neighbour(
                    float(flat[row]),
                    int(owners_array[row, 0]),
                    int(owners_array[row, 1]),
                    self.sentences[owners_array[row, 0]],
                )
                for row in best
            ]
        return result


def marked(tokens: Sequence[str], position: int, window: Optional[int] = None) -> str:
    """The sentence with the token at `position` in [brackets], cut to `window` tokens either side."""
    start = 0 if window is None else max(0, position - window)
    end = len(tokens) if window is None else min(len(tokens), position + window + 1)
    words = list(tokens[start:position]) + [f"[{tokens[position]}]"] + list(tokens[position + 1 : end])
    return ("... " if start > 0 else "") + " ".join(words) + (" ..." if end < len(tokens) else "")
