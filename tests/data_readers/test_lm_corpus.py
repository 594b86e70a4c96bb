"""The biLM corpus reader: streams cut for truncated backpropagation, and what it refuses."""

import pytest
from allennlp.common.checks import ConfigurationError

from data_readers.lm_corpus import LanguageModelStreamsReader


def test_reader_cuts_streams_and_reverses_the_backward_ones(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("a b c\nd e\n\nf g h i\n", encoding="utf-8")
    instances = list(LanguageModelStreamsReader(num_streams=2, unroll_steps=3).read(str(corpus)))
    words = [[[t.text for t in instance[field].tokens] for field in ("forward", "backward")] for instance in instances]
    # <S> a b c </S> <S> d e </S> <S> f g h i </S>: 15 tokens, 2 streams of 7 (the last </S> unused),
    # 2 windows of 3 steps each; the backward streams are the same streams read from the end.
    assert words == [
        [["<S>", "a", "b", "c"], ["d", "<S>", "</S>", "c"]],
        [["e", "</S>", "<S>", "f"], ["i", "h", "g", "f"]],
        [["c", "</S>", "<S>", "d"], ["c", "b", "a", "<S>"]],
        [["f", "g", "h", "i"], ["f", "<S>", "</S>", "e"]],
    ]
    assert [(i["metadata"]["stream"], i["metadata"]["stream_position"]) for i in instances] == [
        (0, 0),
        (1, 0),
        (0, 1),
        (1, 1),
    ]


def test_reader_refuses_a_corpus_too_small_and_bad_encoding(tmp_path):
    corpus = tmp_path / "tiny.txt"
    corpus.write_text("a b\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="tiny.txt: 4 tokens .* cannot fill one window"):
        list(LanguageModelStreamsReader(num_streams=2).read(str(corpus)))
    corpus.write_text("\n  \n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="tiny.txt: the corpus is empty"):
        list(LanguageModelStreamsReader(num_streams=2).read(str(corpus)))
    corpus.write_bytes(b"fine line\nbad \xff line\n")
    with pytest.raises(ValueError, match=r"tiny.txt, line 2: expected UTF-8 text, found byte 0xff"):
        list(LanguageModelStreamsReader(num_streams=1, unroll_steps=1).read(str(corpus)))
