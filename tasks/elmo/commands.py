"""
`allennlp elmo-cache`: fill a config's ELMo activation caches before training.
`allennlp elmo-embed`: write the ELMo vectors of a text file to hdf5 (the former `allennlp elmo`).
"""

import argparse
import logging
import os

from allennlp.commands.subcommand import Subcommand
from allennlp.common import Params

from tasks.common.command import Command
from tasks.elmo.arguments import (
    add_batch_size_argument,
    add_bilm_arguments,
    add_tokenized_argument,
    bilm_files,
    parse_mix_weights,
)
from tasks.elmo.embed import LAYER_OUTPUTS, embed_file
from tasks.elmo.fill import SPLITS, cached_elmo_settings, config_sentences, fill
from tasks.elmo.frozen_bilm import FrozenBilm

logger = logging.getLogger(__name__)


@Subcommand.register("elmo-cache")
class ElmoCache(Command):
    description = (
        "Compute the activations of every sentence a config's ELMo will see (its train, validation and "
        "test data, read with its own readers) into the ELMo's activation cache, before training. "
        "Sentences already in the cache are skipped."
    )

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "config_file", help="a training config whose ELMo has a cache, e.g. configs/ner_elmo.jsonnet"
        )
        parser.add_argument(
            "--splits",
            nargs="+",
            choices=list(SPLITS),
            help="which data to read (default: every split the config names)",
        )
        add_batch_size_argument(parser)
        parser.add_argument("-o", "--overrides", default="", help="JSON overrides for the config, as in allennlp train")

    def run(self, args: argparse.Namespace) -> None:
        config = Params.from_file(args.config_file, args.overrides).as_dict(quiet=True)
        biLMs = cached_elmo_settings(config)
        splits = args.splits or [split for split, (path_key, _) in SPLITS.items() if config.get(path_key)]
        sentences = config_sentences(config, splits)
        for settings, paths in biLMs.items():
            logger.info("ELMo at %s: %s", ", ".join(paths), settings)
            bilm = FrozenBilm(**settings._asdict())
            report = fill(bilm, sentences, args.batch_size)
            speed = f", {report.computed_tokens / report.seconds:.0f} tokens/s" if report.computed else ""
            size = os.path.getsize(bilm.cache.path / "activations.bin")
            logger.info(
                "Cache %s: %d sentences (%d tokens) of %s; %d were stored already, %d computed in %.1f s%s; "
                "%.1f MB on disk",
                bilm.cache.path,
                report.sentences,
                report.tokens,
                ", ".join(splits),
                report.already_stored,
                report.computed,
                report.seconds,
                speed,
                size / 1e6,
            )


@Subcommand.register("elmo-embed")
class ElmoEmbed(Command):
    description = (
        "Write the ELMo vectors of a text file (one sentence per line) to hdf5: one dataset per line, "
        "named by its index from 0, and sentence_to_index. An interrupted run continues when run again."
    )

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("input_file", help="UTF-8 text, one sentence per line")
        parser.add_argument("output_file", help="the hdf5 file to write")
        add_bilm_arguments(
            parser, mix_help="with --layers mix: one weight per layer, w0,w1,w2 (used as given, no softmax)"
        )
        add_tokenized_argument(parser)
        parser.add_argument(
            "--layers",
            choices=LAYER_OUTPUTS,
            default="all",
            help="all: (layers, tokens, dim); top, average or mix: (tokens, dim) (default all)",
        )
        parser.add_argument("--gamma", type=float, default=1.0, help="with --layers mix: the scale γ (default 1)")
        add_batch_size_argument(parser)
        parser.add_argument("--max-sentences", type=int, help="stop after this many sentences; running again continues")
        parser.add_argument(
            "--sentence-vectors",
            action="store_true",
            help="write each line's mean token vector (padding excluded): "
            "all: (layers, dim); top, average or mix: (dim,)",
        )

    def run(self, args: argparse.Namespace) -> None:
        embed_file(
            args.input_file,
            args.output_file,
            *bilm_files(args),
            layers=args.layers,
            mix_weights=parse_mix_weights(args.mix_weights),
            gamma=args.gamma,
            lstm_state=args.lstm_state,
            tokenized=args.tokenized,
            batch_size=args.batch_size,
            max_sentences=args.max_sentences,
            sentence_vectors=args.sentence_vectors,
        )
