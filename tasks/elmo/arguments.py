"""
The command-line arguments of the commands that read a frozen biLM (`allennlp elmo-cache`,
`elmo-embed` and the inspection commands of `tasks.inspect`), and the biLM they name: the files
given with --options-file and --weight-file (both or neither), else the ones ELMO_OPTIONS_FILE
and ELMO_WEIGHT_FILE name (both or neither), else the bundled biLM.
"""

import argparse
from typing import List, Optional, Sequence, Tuple

from allennlp.common.checks import ConfigurationError

from tasks.elmo.frozen_bilm import LSTM_STATES, FrozenBilm, cache_directory_for
from tasks.environment import check_pairs, setting

STATES_WITHOUT_CARRIED = tuple(state for state in LSTM_STATES if state != "carried")


def add_bilm_arguments(
    parser: argparse.ArgumentParser, lstm_states: Sequence[str] = LSTM_STATES, mix_help: Optional[str] = None
) -> None:
    """--options-file, --weight-file and --lstm-state; with `mix_help`, --mix-weights too."""
    parser.add_argument("--options-file", help="biLM options.json (default: ELMO_OPTIONS_FILE, else the bundled biLM)")
    parser.add_argument("--weight-file", help="biLM weights.hdf5 (default: ELMO_WEIGHT_FILE, else the bundled biLM)")
    parser.add_argument(
        "--lstm-state",
        choices=list(lstm_states),
        default="zero",
        help="the state every sentence starts from (default zero)",
    )
    if mix_help:
        parser.add_argument("--mix-weights", help=mix_help)


def add_batch_size_argument(parser: argparse.ArgumentParser) -> None:
    """--batch-size: sentences per biLM batch."""
    parser.add_argument("--batch-size", type=int, default=64, help="sentences per biLM batch (default 64)")


def add_tokenized_argument(parser: argparse.ArgumentParser, what: str = "lines are") -> None:
    """--tokenized: the text is tokens separated by white space, not raw text for spaCy's blank pipeline."""
    parser.add_argument(
        "--tokenized",
        action="store_true",
        help=f"{what} tokens separated by white space (default: raw text, tokenised by blank_spacy)",
    )


def bilm_files(args: argparse.Namespace) -> Tuple[str, str]:
    """`(options file, weight file)` of the biLM the arguments name, from the files given or the environment."""
    if bool(args.options_file) != bool(args.weight_file):
        raise ConfigurationError(
            "give both --options-file and --weight-file, or neither (ELMO_OPTIONS_FILE / ELMO_WEIGHT_FILE)"
        )
    if args.options_file:
        return args.options_file, args.weight_file
    check_pairs()
    return setting("ELMO_OPTIONS_FILE"), setting("ELMO_WEIGHT_FILE")


def open_bilm(args: argparse.Namespace) -> FrozenBilm:
    """
    The biLM the arguments name, reading and filling the activation cache of ELMO_CACHE_DIR (its
    default when unset), unless that is 'none' or the LSTM state is carried (`cache_directory_for`).
    """
    options_file, weight_file = bilm_files(args)
    cache_directory = cache_directory_for(setting("ELMO_CACHE_DIR"), args.lstm_state)
    return FrozenBilm(options_file, weight_file, args.lstm_state, cache_directory)


def parse_mix_weights(text: Optional[str]) -> Optional[List[float]]:
    """`--mix-weights "0.2,0.3,0.5"` as floats; None when not given."""
    if text is None:
        return None
    try:
        return [float(value) for value in text.split(",")]
    except ValueError:
        raise ConfigurationError(
            f"--mix-weights: expected numbers separated by commas, like 0.2,0.3,0.5, not {text!r}"
        ) from None
