"""
ELMo vectors of a text file, written to hdf5 (`allennlp elmo-embed`): the file the `allennlp elmo`
command wrote until AllenNLP 1.0 removed it.

Input: one sentence per line, UTF-8, either tokenised (tokens separated by white space) or raw
text, which spaCy's blank English pipeline tokenises (`blank_spacy`, offline). Output: one dataset
per line, named by the line's index from 0 as a string, of shape `(layers, tokens, dim)` for
`all` and `(tokens, dim)` for `top`, `average` and `mix`, float32; and `sentence_to_index`, one
string holding the JSON map from each line's text (stripped) to its dataset name. An empty line
gets an empty dataset (0 tokens), so dataset names always equal line indices.

With `sentence_vectors`, each line's dataset is instead its sentence vector: the mean of its token
vectors, padding and the sentence boundaries excluded (`masked_mean`), of shape `(layers, dim)`
for `all` and `(dim,)` otherwise; an empty line gets zeros.

Resumable: finished batches go to `OUTPUT.partial/`, one file per batch written under a temporary
name and renamed when complete, so a run that is killed loses at most the batch in hand. Running
the same command again continues where it stopped, and the hdf5 is written (under a temporary
name, then renamed) only once every line is done. `OUTPUT.partial/settings.json` records the input
and settings; a rerun with other ones is refused rather than mixed in.
"""

import json
import logging
import os
import shutil
import time
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional, Sequence

import h5py
import numpy
import torch
from allennlp.common import Tqdm
from allennlp.common.checks import ConfigurationError
from allennlp.modules.elmo import batch_to_ids
from allennlp.nn import util

from data_readers.errors import DataFormatError
from data_readers.tokenizers import BlankSpacyTokenizer
from tasks.common.files import file_sha256
from tasks.elmo.frozen_bilm import LSTM_STATES, FrozenBilm

logger = logging.getLogger(__name__)

LAYER_OUTPUTS = ("all", "top", "average", "mix")
FORMAT_VERSION = 1


class EmbedReport(NamedTuple):
    lines: int
    empty_lines: int
    computed: int  # sentences computed by this run
    remaining: int  # sentences left for a later run (when `max_sentences` stopped this one)
    tokens_computed: int
    seconds: float  # spent computing


def read_sentences(path: Path, tokenized: bool) -> List[List[str]]:
    """The tokens of each line of `path` (UTF-8): split at white space if `tokenized`, else by spaCy."""
    tokenizer = None if tokenized else BlankSpacyTokenizer()
    sentences = []
    with open(path, "rb") as lines:
        for number, raw in enumerate(lines, start=1):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                raise DataFormatError(
                    path, number, f"expected UTF-8 text, found byte {raw[error.start]:#04x} at byte {error.start}"
                ) from None
            if tokenized:
                sentences.append(text.split())
            else:
                sentences.append([token.text for token in tokenizer.tokenize(text.strip())])
    return sentences


def line_texts(path: Path) -> List[str]:
    """Each line of `path`, stripped (already checked to be UTF-8): the keys of `sentence_to_index`."""
    with open(path, "rb") as lines:
        return [raw.decode("utf-8").strip() for raw in lines]


def embed_file(
    input_path: str,
    output_path: str,
    options_file: str,
    weight_file: str,
    layers: str = "all",
    mix_weights: Optional[Sequence[float]] = None,
    gamma: float = 1.0,
    lstm_state: str = "zero",
    tokenized: bool = False,
    batch_size: int = 64,
    max_sentences: Optional[int] = None,
    sentence_vectors: bool = False,
) -> EmbedReport:
    """
    Writes the ELMo vectors of every line of `input_path` to `output_path`, continuing an
    interrupted run of the same command. `layers`: `all`, `top`, `average` (the mean of the
    layers) or `mix` (`gamma` times the sum of the layers weighted by `mix_weights`, as given: the
    paper's s_j, after its softmax). `max_sentences` stops after that many sentences (a later run
    continues). `sentence_vectors` writes each line's mean token vector instead of its tokens'
    vectors. With `lstm_state="carried"` a sentence's vectors depend on every batch before it,
    so such a run is neither split nor resumed.
    """
    input_path, output_path = Path(input_path), Path(output_path)
    _check_choices(layers, mix_weights, lstm_state, batch_size, max_sentences)
    if output_path.exists():
        raise ConfigurationError(f"{output_path} exists: remove it, or choose another output file")
    sentences = read_sentences(input_path, tokenized)
    bilm = FrozenBilm(options_file, weight_file, lstm_state)
    if mix_weights is not None and len(mix_weights) != bilm.num_layers:
        raise ConfigurationError(
            f"the biLM has {bilm.num_layers} layers: give {bilm.num_layers} mix weights, not {len(mix_weights)}"
        )
    settings = {
        "format": FORMAT_VERSION,
        "input_sha256": file_sha256(input_path),
        "tokenized": tokenized,
        "biLM": bilm.fingerprint,
        "lstm_state": lstm_state,
        "layers": layers,
        "mix_weights": list(mix_weights) if mix_weights is not None else None,
        "gamma": gamma if layers == "mix" else None,
        "sentence_vectors": sentence_vectors,
    }
    partial = PartialOutput(Path(f"{output_path}.partial"), settings)
    done = partial.finished_lines()
    if done and lstm_state == "carried":
        raise ConfigurationError(
            f"{partial.directory} holds an interrupted run with carried LSTM states, which cannot be resumed exactly "
            "(its vectors depend on every batch before): remove it to start again"
        )
    empty_lines = [index for index, tokens in enumerate(sentences) if not tokens]
    pending = [index for index, tokens in enumerate(sentences) if tokens and index not in done]
    if done:
        logger.info("Resuming %s: %d sentences done, %d to compute", partial.directory, len(done), len(pending))
    if lstm_state != "carried":  # then each sentence is independent of its batch: sort for less padding
        pending.sort(key=lambda index: len(sentences[index]))
    to_compute = pending if max_sentences is None else pending[:max_sentences]

    tokens = sum(len(sentences[index]) for index in to_compute)
    start = time.perf_counter()
    compute = _sentence_vectors if sentence_vectors else sentence_layers
    with torch.no_grad(), Tqdm.tqdm(total=tokens, unit="token", desc="ELMo") as progress:
        for first in range(0, len(to_compute), batch_size):
            batch = to_compute[first : first + batch_size]
            vectors = compute(bilm, [sentences[index] for index in batch])
            partial.write(
                {index: _select(layer_stack, layers, mix_weights, gamma) for index, layer_stack in zip(batch, vectors)}
            )
            progress.update(sum(len(sentences[index]) for index in batch))
    seconds = time.perf_counter() - start
    remaining = len(pending) - len(to_compute)
    if remaining == 0:
        empty_shape = (
            (bilm.num_layers, bilm.get_output_dim())
            if sentence_vectors
            else (bilm.num_layers, 0, bilm.get_output_dim())
        )
        empty = _select(numpy.zeros(empty_shape, numpy.float32), layers, mix_weights, gamma)
        partial.assemble(output_path, empty_lines, empty, line_texts(input_path))
        if empty_lines:
            logger.info(
                "%d empty lines got empty datasets (0 tokens), the first line %d", len(empty_lines), empty_lines[0] + 1
            )
        logger.info("Wrote %s: %d lines", output_path, len(sentences))
    else:
        logger.info(
            "Stopped after %d sentences as asked; %d remain: run the same command again to continue",
            len(to_compute),
            remaining,
        )
    return EmbedReport(len(sentences), len(empty_lines), len(to_compute), remaining, tokens, seconds)


def _check_choices(layers: str, mix_weights, lstm_state: str, batch_size: int, max_sentences: Optional[int]) -> None:
    if layers not in LAYER_OUTPUTS:
        raise ConfigurationError(f"layers must be one of {LAYER_OUTPUTS}, not {layers!r}")
    if (layers == "mix") != (mix_weights is not None):
        raise ConfigurationError("give mix weights exactly when the layers are 'mix'")
    if lstm_state not in LSTM_STATES:
        raise ConfigurationError(f"lstm_state must be one of {LSTM_STATES}, not {lstm_state!r}")
    if batch_size < 1 or (max_sentences is not None and max_sentences < 1):
        raise ConfigurationError("the batch size and max_sentences must be positive")
    if lstm_state == "carried" and max_sentences is not None:
        raise ConfigurationError(
            "a run with carried LSTM states cannot be split: its vectors depend on every batch before"
        )


def sentence_layers(bilm: FrozenBilm, sentences: Sequence[Sequence[str]]) -> List[numpy.ndarray]:
    """Each sentence's layers `(num_layers, tokens, dim)` in float32, without the sentence boundaries."""
    with torch.no_grad():
        output = bilm(batch_to_ids([list(tokens) for tokens in sentences]))
    layers = torch.stack(output["activations"]).float().numpy()
    return [layers[:, row, 1 : len(tokens) + 1] for row, tokens in enumerate(sentences)]


def masked_mean(vectors: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """
    The mean over time of `vectors` `(..., batch, time, dim)` at the positions where `mask`
    `(batch, time)` is true (AllenNLP's `masked_mean`): padding never enters a sentence's mean.
    Rows with no true position get zeros.
    """
    return util.masked_mean(vectors, mask.unsqueeze(-1), dim=-2)


def _sentence_vectors(bilm: FrozenBilm, sentences: List[List[str]]) -> List[numpy.ndarray]:
    """Each sentence's mean token vector per layer `(num_layers, dim)`, the boundaries and padding excluded."""
    output = bilm(batch_to_ids(sentences))
    layers = torch.stack(output["activations"])  # (layers, batch, time + 2, dim), the boundaries included
    lengths = torch.tensor([len(tokens) for tokens in sentences]).unsqueeze(1)
    positions = torch.arange(layers.size(2)).unsqueeze(0)
    tokens_only = (positions >= 1) & (positions <= lengths)
    means = masked_mean(layers, tokens_only).numpy()
    return [means[:, row] for row in range(len(sentences))]


def _select(layer_stack: numpy.ndarray, layers: str, mix_weights, gamma: float) -> numpy.ndarray:
    if layers == "all":
        return numpy.ascontiguousarray(layer_stack)
    if layers == "top":
        return numpy.ascontiguousarray(layer_stack[-1])
    if layers == "average":
        return layer_stack.mean(axis=0)
    return (gamma * numpy.tensordot(numpy.asarray(mix_weights, numpy.float32), layer_stack, axes=1)).astype(
        numpy.float32
    )


class PartialOutput:
    """
    The finished batches of an embedding run, `directory/lines-<first line>.npz`, each holding its
    sentences' arrays by line index, and the run's `settings.json`.
    """

    def __init__(self, directory: Path, settings: Dict) -> None:
        self.directory = directory
        settings_path = directory / "settings.json"
        if settings_path.exists():
            found = json.loads(settings_path.read_text(encoding="utf-8"))
            if found != settings:
                differences = ", ".join(
                    sorted(key for key in set(found) | set(settings) if found.get(key) != settings.get(key))
                )
                raise ConfigurationError(
                    f"{directory} holds a run with other {differences}: run the same command as before, or remove "
                    f"{directory}"
                )
        else:
            directory.mkdir(parents=True)
            settings_path.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
        for unfinished in directory.glob("*.tmp"):  # a batch being written when the run was killed
            unfinished.unlink()

    def finished_lines(self) -> set:
        lines = set()
        for batch_file in self._batch_files():
            with numpy.load(batch_file) as batch:
                lines.update(int(name) for name in batch.files)
        return lines

    def write(self, vectors: Dict[int, numpy.ndarray]) -> None:
        path = self.directory / f"lines-{min(vectors):09d}.npz"
        temporary = path.with_name(path.name + ".tmp")
        with open(temporary, "wb") as output:
            numpy.savez(output, **{str(index): array for index, array in vectors.items()})
        os.replace(temporary, path)

    def assemble(self, output_path: Path, empty_lines: List[int], empty: numpy.ndarray, texts: List[str]) -> None:
        """Writes the hdf5 of every line (`empty` for the `empty_lines`), then removes the batches."""
        temporary = output_path.with_name(output_path.name + ".tmp")
        with h5py.File(temporary, "w") as output:
            for batch_file in self._batch_files():
                with numpy.load(batch_file) as batch:
                    for name in batch.files:
                        output.create_dataset(name, data=batch[name])
            for index in empty_lines:
                output.create_dataset(str(index), data=empty)
            missing = [index for index in range(len(texts)) if str(index) not in output]
            if missing:
                raise RuntimeError(f"{self.directory} lacks lines {missing[:10]}: remove it and run again")
            sentence_to_index = {text: str(index) for index, text in enumerate(texts)}
            output.create_dataset("sentence_to_index", data=[json.dumps(sentence_to_index)], dtype=h5py.string_dtype())
        os.replace(temporary, output_path)
        shutil.rmtree(self.directory)

    def _batch_files(self) -> List[Path]:
        return sorted(self.directory.glob("lines-*.npz"))
