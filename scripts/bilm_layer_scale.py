"""
How large each layer of a biLM's activations is on a text, beside the word vectors ELMo is
concatenated to: the "Activation scale" table of bundled/bilm/MODEL_CARD.md. ELMo's mix starts at a
third of each layer times γ = 1, so a layer far larger than the word vectors dominates the task
model's first inputs until γ and the mix are learned.

    python scripts/bilm_layer_scale.py bundled/bilm/options.json bundled/bilm/weights.hdf5 premises.txt \
        --lines 200 --word-vectors ../shared/data/glove/glove.6B.50d.txt.gz

The text is one sentence per line; `--tokenized` splits lines at white space, else spaCy's blank
English tokenizer splits them as the task readers do. The layers are measured over every token, the
word vectors over each distinct token (lowercased) that has one.
"""

import argparse
import gzip
import sys
from pathlib import Path
from typing import List, Sequence

import numpy

from tasks.elmo.embed import read_sentences, sentence_layers
from tasks.elmo.frozen_bilm import FrozenBilm

BATCH_SIZE = 32


def scale_row(name: str, vectors: numpy.ndarray) -> str:
    """A Markdown row for `vectors` `(tokens, dim)`: mean |x|, root mean square, max |x|, mean vector norm."""
    absolute = numpy.abs(vectors)
    rms = float(numpy.sqrt(numpy.mean(vectors**2)))
    norm = float(numpy.linalg.norm(vectors, axis=1).mean())
    return f"| {name} | {vectors.shape[1]} | {absolute.mean():.3f} | {rms:.3f} | {absolute.max():.2f} | {norm:.2f} |"


def word_vectors_of(sentences: Sequence[Sequence[str]], path: Path) -> numpy.ndarray:
    """The vectors in `path` (GloVe's text format, gzipped or not) of the sentences' tokens, lowercased, once each."""
    wanted = {token.lower() for sentence in sentences for token in sentence}
    found: List[numpy.ndarray] = []
    with gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else open(path, encoding="utf-8") as lines:
        for line in lines:
            word, _, values = line.rstrip().partition(" ")
            if word in wanted:
                found.append(numpy.asarray(values.split(" "), dtype=numpy.float32))
    if not found:
        raise SystemExit(f"{path}: none of the text's tokens has a vector")
    return numpy.stack(found)


def main(argv: Sequence[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("options_file", type=Path)
    parser.add_argument("weight_file", type=Path)
    parser.add_argument("text", type=Path, help="one sentence per line")
    parser.add_argument("--lines", type=int, default=200, help="read the first N non-empty lines (default 200)")
    parser.add_argument("--tokenized", action="store_true", help="split lines at white space, not with spaCy")
    parser.add_argument("--word-vectors", type=Path, help="a GloVe-format file to set beside the layers")
    arguments = parser.parse_args(argv)
    if arguments.lines < 1:
        parser.error("--lines must be at least 1")

    sentences = [sentence for sentence in read_sentences(arguments.text, arguments.tokenized) if sentence]
    sentences = sentences[: arguments.lines]
    if not sentences:
        raise SystemExit(f"{arguments.text}: no non-empty line")
    bilm = FrozenBilm(str(arguments.options_file), str(arguments.weight_file))
    per_sentence = []
    for start in range(0, len(sentences), BATCH_SIZE):
        per_sentence += sentence_layers(bilm, sentences[start : start + BATCH_SIZE])
    layers = numpy.concatenate(per_sentence, axis=1)  # (layers, tokens, dim)

    tokens = layers.shape[1]
    print(f"{arguments.text}: {len(sentences)} sentences, {tokens:,} tokens")
    print()
    print("| layer | dim | mean abs | root mean square | max abs | mean vector norm |")
    print("|---|---|---|---|---|---|")
    for index, layer in enumerate(layers):
        print(scale_row("0 (token)" if index == 0 else f"{index} (biLSTM)", layer))
    if arguments.word_vectors:
        vectors = word_vectors_of(sentences, arguments.word_vectors)
        print(scale_row(f"word vectors ({arguments.word_vectors.name})", vectors))


if __name__ == "__main__":
    main(sys.argv[1:])
