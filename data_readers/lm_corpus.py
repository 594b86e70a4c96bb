"""
Reader for language-model pretraining on plain text, in the streams bilm-tf trains on.

The corpus is one sentence per line, tokens separated by spaces (`tokenized: true`, the default),
or raw text split into sentences and tokens offline (`tokenized: false`). Each sentence is wrapped
in `<S>` ... `</S>` and the corpus becomes one token sequence, cut into `num_streams` contiguous
streams (the rows of a batch). Batch k holds, for every stream, tokens `k * unroll_steps` to
`(k + 1) * unroll_steps` (one more token than the model reads, so it can predict each next one),
once in reading order for the forward LM and once from the stream read backwards for the backward
LM. Instances come out batch by batch, so a data loader with `batch_size = num_streams` and no
shuffling hands each stream's windows to the model in order, and the model carries each row's
LSTM state from batch to batch (truncated backpropagation through time). The tokens that do not
fill a last window are dropped (fewer than `num_streams * unroll_steps`), and the log says how many.
"""

import logging
from pathlib import Path
from typing import Iterable, Iterator, List

from allennlp.common.checks import ConfigurationError
from allennlp.common.file_utils import cached_path
from allennlp.data import DatasetReader, Instance, Token
from allennlp.data.fields import MetadataField, TextField
from allennlp.data.token_indexers import ELMoTokenCharactersIndexer, SingleIdTokenIndexer

from data_readers.errors import numbered_lines
from data_readers.tokenizers import BlankSpacyTokenizer

logger = logging.getLogger(__name__)

SENTENCE_START, SENTENCE_END = "<S>", "</S>"


class _UncountedSingleIdTokenIndexer(SingleIdTokenIndexer):
    """Indexes like `single_id` but adds nothing to vocabulary counts (for the backward copy of
    the text, so each word is counted once, not once per direction)."""

    def count_vocab_items(self, token, counter) -> None:
        pass


@DatasetReader.register("lm_streams")
class LanguageModelStreamsReader(DatasetReader):
    """
    Registered as a `DatasetReader` with name "lm_streams". Instances hold `forward` and
    `backward` `TextField`s of `unroll_steps + 1` tokens (indexed as ELMo characters, `elmo`, and
    as word ids, `words`) and `metadata` with the row's `stream` and the batch's `stream_position`.

    # Parameters

    num_streams : `int`
        The batch size: the data loader must use the same, with `shuffle: false`.
    unroll_steps : `int`, optional (default = `20`, as bilm-tf)
    tokenized : `bool`, optional (default = `True`)
    """

    def __init__(self, num_streams: int, unroll_steps: int = 20, tokenized: bool = True, **kwargs) -> None:
        super().__init__(**kwargs)
        self.num_streams = num_streams
        self.unroll_steps = unroll_steps
        self._tokenizer = None if tokenized else BlankSpacyTokenizer()
        self._character_indexer = ELMoTokenCharactersIndexer()

    def _read(self, file_path: str) -> Iterable[Instance]:
        path = Path(cached_path(file_path))
        tokens = list(self._corpus_tokens(path))
        if not tokens:
            raise ConfigurationError(f"{path}: the corpus is empty (expected one sentence per line)")
        stream_length = len(tokens) // self.num_streams
        windows = (stream_length - 1) // self.unroll_steps
        if windows < 1:
            raise ConfigurationError(
                f"{path}: {len(tokens)} tokens (with sentence boundaries) cannot fill one window of "
                f"{self.unroll_steps + 1} tokens in each of {self.num_streams} streams"
            )
        used = windows * self.unroll_steps + 1
        logger.info(
            "%s: %d tokens with sentence boundaries, %d streams of %d, %d batches; %d tokens left unused",
            path,
            len(tokens),
            self.num_streams,
            used,
            windows,
            len(tokens) - used * self.num_streams,
        )
        streams = [tokens[row * stream_length : row * stream_length + used] for row in range(self.num_streams)]
        reversed_streams = [stream[::-1] for stream in streams]
        for position in range(windows):
            start, end = position * self.unroll_steps, (position + 1) * self.unroll_steps + 1
            for row, (stream, reversed_stream) in enumerate(zip(streams, reversed_streams)):
                yield self.text_to_instance(stream[start:end], reversed_stream[start:end], row, position)

    def _corpus_tokens(self, path: Path) -> Iterator[str]:
        """Every token of the corpus, sentences wrapped in boundary tokens."""
        for _, line in numbered_lines(path):
            for sentence in self._sentences(line):
                yield SENTENCE_START
                yield from sentence
                yield SENTENCE_END

    def _sentences(self, line: str) -> List[List[str]]:
        if self._tokenizer is None:
            words = line.split()
            return [words] if words else []
        return [[token.text for token in sentence] for sentence in self._tokenizer.split_sentences(line)]

    def text_to_instance(  # type: ignore
        self, forward_tokens: List[str], backward_tokens: List[str], stream: int, stream_position: int
    ) -> Instance:
        return Instance(
            {
                "forward": TextField([Token(word) for word in forward_tokens]),
                "backward": TextField([Token(word) for word in backward_tokens]),
                "metadata": MetadataField({"stream": stream, "stream_position": stream_position}),
            }
        )

    def apply_token_indexers(self, instance: Instance) -> None:
        instance["forward"].token_indexers = {"elmo": self._character_indexer, "words": SingleIdTokenIndexer()}
        instance["backward"].token_indexers = {
            "elmo": self._character_indexer,
            "words": _UncountedSingleIdTokenIndexer(),
        }
