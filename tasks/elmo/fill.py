"""
Filling the activation caches of a config's ELMo ahead of training (`allennlp elmo-cache`).

Training fills the cache as it goes, so its first epoch runs the biLM and every later one reads the
cache. Filling beforehand, with large batches sorted by length, makes the first epoch as fast as the
others, lets several runs (seeds, ablations that share the biLM) start from a full cache, and shows
the biLM's cost once, with a progress bar.

The sentences are those the config's own readers produce: every `TextField` (also inside a
`ListField`) indexed by an `elmo_characters` indexer, turned into character ids by that indexer,
so their cache keys are exactly the ones the model looks up in training.
"""

import copy
import logging
import time
from typing import Any, Dict, Iterable, Iterator, List, NamedTuple, Tuple

import torch
from allennlp.common import Params, Tqdm
from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader, Instance, Vocabulary
from allennlp.data.fields import Field, ListField, TextField
from allennlp.data.token_indexers import ELMoTokenCharactersIndexer
from allennlp.data.token_indexers.elmo_indexer import ELMoCharacterMapper

from tasks.elmo.cache import sentence_key
from tasks.elmo.frozen_bilm import FrozenBilm

logger = logging.getLogger(__name__)

# The config key of each split's data, and which reader AllenNLP's `train` reads it with.
SPLITS = {
    "train": ("train_data_path", "dataset_reader"),
    "validation": ("validation_data_path", "validation_dataset_reader"),
    "test": ("test_data_path", "validation_dataset_reader"),
}


class ElmoSettings(NamedTuple):
    """What identifies one cached biLM in a config; equal settings share one cache."""

    options_file: str
    weight_file: str
    lstm_state: str
    cache_directory: str
    cache_dtype: str


class FillReport(NamedTuple):
    sentences: int  # distinct non-empty sentences in the splits read
    tokens: int
    already_stored: int  # of those sentences
    computed: int
    computed_tokens: int
    seconds: float  # spent computing


def find_elmos(params: Any, path: str = "model") -> List[Tuple[str, Dict[str, Any]]]:
    """
    Every ELMo in a model's parameters, with its dotted path: a `fast_elmo` or AllenNLP
    `elmo_token_embedder` token embedder, or an `Elmo` / `PaperElmo` module given to a model, that
    is any object with both `options_file` and `weight_file`.
    """
    found = []
    if isinstance(params, dict):
        if "options_file" in params and "weight_file" in params:
            return [(path, params)]
        for key, value in params.items():
            found += find_elmos(value, f"{path}.{key}")
    elif isinstance(params, list):
        for index, value in enumerate(params):
            found += find_elmos(value, f"{path}.{index}")
    return found


def cached_elmo_settings(config: Dict[str, Any]) -> Dict[ElmoSettings, List[str]]:
    """
    The distinct cached biLMs of a config's model, each with the paths of the ELMos that use it.
    Refuses a config without ELMo, or with an ELMo that has no cache (nothing to fill).
    """
    elmos = find_elmos(config.get("model", {}))
    if not elmos:
        raise ConfigurationError("the config's model has no ELMo (no object with options_file and weight_file)")
    uncached = [
        f"{path} ({elmo.get('type', 'a module')})"
        for path, elmo in elmos
        if not elmo.get("cache_directory") or elmo.get("type") == "elmo_token_embedder"
    ]
    if uncached:
        raise ConfigurationError(
            "no activation cache to fill for " + ", ".join(uncached) + ": only fast_elmo and PaperElmo have one, "
            "set by cache_directory (configs/lib/elmo.libsonnet sets it from ELMO_CACHE_DIR, unless that is "
            "'none' or lstm_state is 'carried', whose activations depend on the batch)"
        )
    biLMs: Dict[ElmoSettings, List[str]] = {}
    for path, elmo in elmos:
        if elmo.get("requires_grad"):
            raise ConfigurationError(f"{path} fine-tunes its biLM (requires_grad): its activations cannot be cached")
        settings = ElmoSettings(
            elmo["options_file"],
            elmo["weight_file"],
            elmo.get("lstm_state", "zero"),
            elmo["cache_directory"],
            elmo.get("cache_dtype", "float16"),
        )
        biLMs.setdefault(settings, []).append(path)
    return biLMs


def elmo_character_ids(instance: Instance) -> Iterator[List[List[int]]]:
    """The character ids of every ELMo-indexed text in `instance`, as the model receives them."""
    yield from _field_character_ids(instance.fields.values())


def _field_character_ids(fields: Iterable[Field]) -> Iterator[List[List[int]]]:
    for field in fields:
        if isinstance(field, ListField):
            yield from _field_character_ids(field.field_list)
        elif isinstance(field, TextField):
            for indexer in field.token_indexers.values():
                if isinstance(indexer, ELMoTokenCharactersIndexer):
                    yield indexer.tokens_to_indices(field.tokens, _EMPTY_VOCABULARY)["elmo_tokens"]


_EMPTY_VOCABULARY = Vocabulary()  # the ELMo indexer needs none


def config_sentences(config: Dict[str, Any], splits: List[str]) -> Dict[bytes, List[List[int]]]:
    """
    The distinct ELMo inputs of the config's `splits`, by cache key, read with the readers
    `allennlp train` uses for them. Empty texts (which the biLM never computes) are counted and left out.
    """
    sentences: Dict[bytes, List[List[int]]] = {}
    for split in splits:
        path_key, reader_key = SPLITS[split]
        if path_key not in config:
            raise ConfigurationError(f"the config has no {path_key}, so it has no {split} split to read")
        reader_params = config.get(reader_key) or config["dataset_reader"]
        reader = DatasetReader.from_params(Params(copy.deepcopy(reader_params)))
        texts = empty = 0
        for instance in reader.read(config[path_key]):
            for character_ids in elmo_character_ids(instance):
                texts += 1
                if not character_ids:
                    empty += 1
                    continue
                sentences.setdefault(sentence_key(torch.tensor(character_ids)), character_ids)
        if texts == 0:
            raise ConfigurationError(
                f"no ELMo input in the {split} split ({config[path_key]}): no text field has an elmo_characters indexer"
            )
        logger.info("%s (%s): %d ELMo inputs, %d of them empty (left out)", split, config[path_key], texts, empty)
    logger.info("%d distinct non-empty ELMo inputs in %s", len(sentences), ", ".join(splits))
    return sentences


def fill(
    bilm: FrozenBilm, sentences: Dict[bytes, List[List[int]]], batch_size: int, description: str = "biLM"
) -> FillReport:
    """Computes into `bilm`'s cache every sentence it does not hold yet, in batches sorted by length."""
    if bilm.cache is None:
        raise ConfigurationError("this biLM has no cache to fill")
    if batch_size < 1:
        raise ConfigurationError(f"the batch size must be positive, not {batch_size}")
    stored = bilm.cache._lookup(sentences.keys())  # only which keys are there: nothing is read yet
    missing = sorted((key for key in sentences if key not in stored), key=lambda key: len(sentences[key]))
    tokens = sum(len(ids) for ids in sentences.values())
    missing_tokens = sum(len(sentences[key]) for key in missing)
    logger.info(
        "%d of %d sentences already in the cache (%s); computing %d (%d tokens)",
        len(stored),
        len(sentences),
        bilm.cache.path,
        len(missing),
        missing_tokens,
    )
    start = time.perf_counter()
    with torch.no_grad(), Tqdm.tqdm(total=missing_tokens, unit="token", desc=description) as progress:
        for first in range(0, len(missing), batch_size):
            batch = [sentences[key] for key in missing[first : first + batch_size]]
            bilm(padded_character_ids(batch))  # the cache stores what it computes
            progress.update(sum(len(ids) for ids in batch))
    seconds = time.perf_counter() - start
    return FillReport(len(sentences), tokens, len(stored), len(missing), missing_tokens, seconds)


def padded_character_ids(sentences: List[List[List[int]]]) -> torch.Tensor:
    """`(batch, time, 50)` character ids, padded with zero rows as AllenNLP's ELMo indexer pads them."""
    longest = max(len(ids) for ids in sentences)
    batch = torch.zeros(len(sentences), longest, ELMoCharacterMapper.max_word_length, dtype=torch.long)
    for row, ids in enumerate(sentences):
        if ids:
            batch[row, : len(ids)] = torch.tensor(ids)
    return batch
