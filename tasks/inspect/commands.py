"""
`allennlp elmo-similarity`, `allennlp elmo-index`, `allennlp elmo-neighbours` and `allennlp
elmo-probe`: look inside any biLM in the original weight layout (default: ELMO_OPTIONS_FILE /
ELMO_WEIGHT_FILE, else the bundled biLM).
"""

import argparse
import json
import logging
import time
from pathlib import Path
from typing import List

from allennlp.commands.subcommand import Subcommand
from allennlp.common.checks import ConfigurationError

from data_readers.conllu_words import read_conllu_words
from data_readers.tokenizers import BlankSpacyTokenizer
from tasks.common.command import Command
from tasks.elmo.arguments import (
    STATES_WITHOUT_CARRIED,
    add_batch_size_argument,
    add_bilm_arguments,
    add_tokenized_argument,
    bilm_files,
    open_bilm,
    parse_mix_weights,
)
from tasks.elmo.embed import read_sentences
from tasks.environment import repository_relative, setting
from tasks.inspect.charts import heatmap
from tasks.inspect.neighbours import NeighbourIndex, build_index, marked
from tasks.inspect.probes import TASKS, ProbeSettings, probe_chart, probe_markdown, run_probes, subset
from tasks.inspect.similarity import contextual_similarity, similarity_json, similarity_table, word_positions
from tasks.inspect.vectors import view_title

logger = logging.getLogger(__name__)

DEFAULTS = ProbeSettings()
COMPARED_MIX_HELP = "also compare this mix of the layers: one weight per layer, w0,w1,w2 (used as given)"


def _tokens(text: str, tokenized: bool) -> List[str]:
    return text.split() if tokenized else [token.text for token in BlankSpacyTokenizer().tokenize(text.strip())]


@Subcommand.register("elmo-similarity")
class ElmoSimilarity(Command):
    description = (
        "Follow one word through several sentences and print, per biLM layer (0: characters, then each biLSTM "
        "layer, their average, a given mix), the cosine similarity of its vectors between every pair of sentences; "
        "write the matrices as a heatmap (SVG) and JSON."
    )

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("input_file", help="UTF-8 text, one sentence per line (empty lines are ignored)")
        where = parser.add_mutually_exclusive_group(required=True)
        where.add_argument("--word", help="follow the first token equal to this word in each sentence")
        where.add_argument("--positions", help="follow the token at these positions, one per sentence, from 0: 3,0,5")
        add_tokenized_argument(parser)
        parser.add_argument("--heatmap", help="write the heatmap here (SVG)")
        parser.add_argument("--output-json", help="write the matrices here")
        add_bilm_arguments(parser, STATES_WITHOUT_CARRIED, COMPARED_MIX_HELP)

    def run(self, args: argparse.Namespace) -> None:
        sentences = [tokens for tokens in read_sentences(Path(args.input_file), args.tokenized) if tokens]
        positions = None
        if args.positions:
            try:
                positions = [int(value) for value in args.positions.split(",")]
            except ValueError:
                raise ConfigurationError(
                    f"--positions: expected whole numbers separated by commas, not {args.positions!r}"
                ) from None
        positions = word_positions(sentences, args.word, positions)
        bilm = open_bilm(args)
        similarities = contextual_similarity(bilm, sentences, positions, parse_mix_weights(args.mix_weights))
        print(similarity_table(similarities))
        if args.heatmap:
            words = sorted({tokens[position] for tokens, position in zip(sentences, positions)})
            notes = [
                f"S{number}: {marked(tokens, position, window=10)}"
                for number, (tokens, position) in enumerate(zip(sentences, positions), start=1)
            ]
            labels = [f"S{number}" for number in range(1, len(sentences) + 1)]
            title = f"Cosine similarity of {', '.join(repr(word) for word in words)} across contexts"
            Path(args.heatmap).write_text(heatmap(title, similarities.matrices, labels, notes) + "\n", encoding="utf-8")
            logger.info("Wrote %s", args.heatmap)
        if args.output_json:
            text = json.dumps(similarity_json(similarities), indent=2) + "\n"
            Path(args.output_json).write_text(text, encoding="utf-8")


@Subcommand.register("elmo-index")
class ElmoIndex(Command):
    description = (
        "Index the token vectors of a corpus for allennlp elmo-neighbours: the biLM's layers go to the ELMo "
        "activation cache (ELMO_CACHE_DIR), the sentences and settings to the index directory."
    )

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("corpus", help="UTF-8 text, one sentence per line")
        parser.add_argument("index_directory", help="where to write the index")
        add_tokenized_argument(parser)
        add_batch_size_argument(parser)
        add_bilm_arguments(parser, STATES_WITHOUT_CARRIED)

    def run(self, args: argparse.Namespace) -> None:
        sentences = read_sentences(Path(args.corpus), args.tokenized)
        cache_directory = setting("ELMO_CACHE_DIR")
        build_index(
            sentences, args.index_directory, *bilm_files(args), cache_directory, args.lstm_state, args.batch_size
        )


@Subcommand.register("elmo-neighbours")
class ElmoNeighbours(Command):
    description = (
        "The corpus tokens nearest (cosine) to one word of a sentence, with their sentences, per biLM layer, "
        "their average and a given mix (the paper's Table 4), from an index written by allennlp elmo-index."
    )

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("index_directory", help="an index written by allennlp elmo-index")
        parser.add_argument("sentence", help="the sentence the word is in")
        where = parser.add_mutually_exclusive_group(required=True)
        where.add_argument("--word", help="the first token equal to this word")
        where.add_argument("--position", type=int, help="the token at this position, from 0")
        add_tokenized_argument(parser, what="the sentence is")
        parser.add_argument("--top", type=int, default=5, help="neighbours per view (default 5)")
        parser.add_argument("--mix-weights", help="also search with this mix of the layers: w0,w1,w2 (used as given)")
        parser.add_argument("--output-json", help="also write the neighbours here")

    def run(self, args: argparse.Namespace) -> None:
        tokens = _tokens(args.sentence, args.tokenized)
        position = word_positions([tokens], args.word, None if args.position is None else [args.position])[0]
        index = NeighbourIndex(args.index_directory)
        found = index.nearest(tokens, position, args.top, parse_mix_weights(args.mix_weights))
        indexed = f"{index.settings['sentences']} sentences, {index.settings['tokens']} tokens indexed"
        print(f"Source: {marked(tokens, position)}  ({indexed})")
        for name, neighbours in found.items():
            print(f"\n{view_title(name)}:")
            for neighbour in neighbours:
                in_context = marked(neighbour.tokens, neighbour.position, window=12)
                print(f"  {neighbour.similarity:.4f}  #{neighbour.sentence}  {in_context}")
        if args.output_json:
            content = {
                "sentence": tokens,
                "position": position,
                "neighbours": {
                    name: [
                        {
                            "similarity": round(n.similarity, 6),
                            "sentence": n.sentence,
                            "position": n.position,
                            "tokens": n.tokens,
                        }
                        for n in neighbours
                    ]
                    for name, neighbours in found.items()
                },
            }
            text = json.dumps(content, ensure_ascii=False, indent=1) + "\n"
            Path(args.output_json).write_text(text, encoding="utf-8")


@Subcommand.register("elmo-probe")
class ElmoProbe(Command):
    description = (
        "Probe each biLM layer on frozen features: part of speech (UPOS, XPOS) by a linear classifier, PropBank "
        "predicate sense by 1-nearest-neighbour; train on one CoNLL-U (Universal PropBank) file, score on another. "
        "Writes probe.md, probe.json and probe.svg (error per layer) to the output directory."
    )

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("train_file", help="CoNLL-U to train on (Universal PropBank columns for the sense probe)")
        parser.add_argument("test_file", help="CoNLL-U to score on")
        parser.add_argument("output_directory", help="where to write probe.md, probe.json and probe.svg")
        parser.add_argument("--tasks", nargs="+", choices=TASKS, default=list(TASKS), help="which probes (default all)")
        parser.add_argument(
            "--max-train-sentences", type=int, help="train on this many sentences drawn with --seed (default all)"
        )
        parser.add_argument(
            "--max-test-sentences", type=int, help="score on this many sentences drawn with --seed (default all)"
        )
        parser.add_argument(
            "--l2", type=float, default=DEFAULTS.l2, help=f"L2 penalty of the linear probes (default {DEFAULTS.l2})"
        )
        parser.add_argument(
            "--iterations",
            type=int,
            default=DEFAULTS.iterations,
            help=f"L-BFGS iterations (default {DEFAULTS.iterations})",
        )
        parser.add_argument(
            "--seed", type=int, default=DEFAULTS.seed, help=f"for the subsets and the probes (default {DEFAULTS.seed})"
        )
        add_batch_size_argument(parser)
        add_bilm_arguments(parser, STATES_WITHOUT_CARRIED, COMPARED_MIX_HELP)

    def run(self, args: argparse.Namespace) -> None:
        start = time.perf_counter()
        train = subset(read_conllu_words(args.train_file), args.max_train_sentences, args.seed)
        test = subset(read_conllu_words(args.test_file), args.max_test_sentences, args.seed)
        if "sense" in args.tasks and not any(roleset for s in train for roleset in s.rolesets):
            raise ConfigurationError(
                f"{args.train_file} has no PropBank rolesets (a PRED column) for the sense probe: "
                "leave 'sense' out of --tasks"
            )
        bilm = open_bilm(args)
        settings = ProbeSettings(args.l2, args.iterations, args.seed)
        mix_weights = parse_mix_weights(args.mix_weights)
        results = run_probes(bilm, train, test, args.tasks, mix_weights, settings, args.batch_size)
        results["settings"] = {
            "train_file": args.train_file,
            "test_file": args.test_file,
            "max_train_sentences": args.max_train_sentences,
            "max_test_sentences": args.max_test_sentences,
            "options_file": repository_relative(bilm.options_file) or bilm.options_file,
            "weight_file": repository_relative(bilm.weight_file) or bilm.weight_file,
            "lstm_state": args.lstm_state,
            "mix_weights": mix_weights,
            **settings._asdict(),
        }
        results["seconds"] = round(time.perf_counter() - start, 1)
        output = Path(args.output_directory)
        output.mkdir(parents=True, exist_ok=True)
        (output / "probe.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
        table = probe_markdown(results)
        (output / "probe.md").write_text(table, encoding="utf-8")
        chart = probe_chart(results, "Probes per biLM layer: test error")
        (output / "probe.svg").write_text(chart + "\n", encoding="utf-8")
        print(table)
        logger.info("Wrote probe.md, probe.json and probe.svg to %s in %.1f s", output, results["seconds"])
