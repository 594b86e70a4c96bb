"""
The environment variables that point the configs at data and ELMo weights.

Configs read them with `std.extVar`, which fails on an unset variable, so where configs are
evaluated (the `allennlp` command, which loads `tasks.plugin`; `apply_defaults` elsewhere) every
unset variable is given its bundled default: the small sample data we wrote and the bundled biLM,
so a config runs offline out of the box. Commands that read one variable take it with `setting`,
which gives the same default without writing it anywhere. A variable that is set must name an
existing file: otherwise it stops at once, naming the variable and path.
"""

import logging
import os
from pathlib import Path
from typing import Dict, Mapping, MutableMapping, NamedTuple, Optional, Tuple

from allennlp.common.checks import ConfigurationError

logger = logging.getLogger(__name__)

PROJECT_ROOT = Path(__file__).resolve().parent.parent
BUNDLED_DATA = PROJECT_ROOT / "bundled" / "data"
BUNDLED_BILM = PROJECT_ROOT / "bundled" / "bilm"


def repository_relative(path) -> Optional[str]:
    """
    `path` relative to the repository when it lies inside it (a file that records it holds no
    machine's path), else None.
    """
    resolved = Path(path).resolve()
    return str(resolved.relative_to(PROJECT_ROOT)) if resolved.is_relative_to(PROJECT_ROOT) else None


class Variable(NamedTuple):
    description: str
    default: str  # "" means the config's own fallback (for optional inputs)
    kind: str = "file"  # "file" must exist; "directory" is made on first use; "fraction" and "count" are numbers;
    # "devices": see DEVICES; "path": an existing file or directory; "choice": one of `choices`
    choices: Tuple[str, ...] = ()


VARIABLES: Dict[str, Variable] = {
    "ELMO_OPTIONS_FILE": Variable("ELMo options.json (original bilm-tf layout)", str(BUNDLED_BILM / "options.json")),
    "ELMO_WEIGHT_FILE": Variable("ELMo weights.hdf5 (original bilm-tf layout)", str(BUNDLED_BILM / "weights.hdf5")),
    "ELMO_CACHE_DIR": Variable(
        "directory for the cache of frozen biLM activations ('none': no cache)",
        str(PROJECT_ROOT / ".elmo_cache"),
        kind="directory",
    ),
    "TRAIN_FRACTION": Variable("part of the training data to train on, in (0, 1]", "1.0", kind="fraction"),
    "TRAIN_LIMIT": Variable("the most training instances to train on; empty: no limit", "", kind="count"),
    "EVAL_LIMIT": Variable(
        "the most dev and test instances to evaluate on (a seeded part, the same in every run); empty: all",
        "",
        kind="count",
    ),
    "BILM_OPTIONS_FILE": Variable(
        "options.json of the biLM to pretrain (bilm-tf layout)", str(BUNDLED_BILM / "options.json")
    ),
    "BILM_TRAIN_CORPUS": Variable(
        "biLM pretraining corpus, one tokenised sentence per line", str(BUNDLED_DATA / "lm" / "train.txt")
    ),
    "BILM_HELDOUT_CORPUS": Variable(
        "held-out corpus for biLM perplexity, same format", str(BUNDLED_DATA / "lm" / "heldout.txt")
    ),
    "NER_TRAIN_DATA": Variable("CoNLL-2003 train file (eng.train)", str(BUNDLED_DATA / "ner" / "train.txt")),
    "NER_DEV_DATA": Variable("CoNLL-2003 dev file (eng.testa)", str(BUNDLED_DATA / "ner" / "dev.txt")),
    "NER_TEST_DATA": Variable("CoNLL-2003 test file (eng.testb)", str(BUNDLED_DATA / "ner" / "test.txt")),
    "NER_WORD_VECTORS": Variable(
        "pretrained word vectors for NER (GloVe text format); unset: trained from scratch", ""
    ),
    "SST_TRAIN_DATA": Variable("SST PTB trees, train split (train.txt)", str(BUNDLED_DATA / "sst" / "train.txt")),
    "SST_DEV_DATA": Variable("SST PTB trees, dev split (dev.txt)", str(BUNDLED_DATA / "sst" / "dev.txt")),
    "SST_TEST_DATA": Variable("SST PTB trees, test split (test.txt)", str(BUNDLED_DATA / "sst" / "test.txt")),
    "SST_WORD_VECTORS": Variable(
        "fixed word vectors for SST (GloVe text format, 300-d); unset: trained from scratch", ""
    ),
    "SST_TRAIN_ON": Variable(
        "what SST-5 trains on: 'phrases' (every phrase of 4 tokens or more, the paper) or 'sentences' (the "
        "8,544 whole training sentences, 163,566 tokens against the phrases' 1,002,795: for a CPU)",
        "phrases",
        kind="choice",
        choices=("phrases", "sentences"),
    ),
    "SNLI_TRAIN_DATA": Variable(
        "SNLI jsonl, train split (snli_1.0_train.jsonl)", str(BUNDLED_DATA / "snli" / "train.jsonl")
    ),
    "SNLI_DEV_DATA": Variable("SNLI jsonl, dev split (snli_1.0_dev.jsonl)", str(BUNDLED_DATA / "snli" / "dev.jsonl")),
    "SNLI_TEST_DATA": Variable(
        "SNLI jsonl, test split (snli_1.0_test.jsonl)", str(BUNDLED_DATA / "snli" / "test.jsonl")
    ),
    "SNLI_WORD_VECTORS": Variable(
        "fixed word vectors for SNLI (GloVe text format, 300-d); unset: trained from scratch", ""
    ),
    "SQUAD_TRAIN_DATA": Variable("SQuAD 1.1 train file (train-v1.1.json)", str(BUNDLED_DATA / "squad" / "train.json")),
    "SQUAD_DEV_DATA": Variable("SQuAD 1.1 dev file (dev-v1.1.json)", str(BUNDLED_DATA / "squad" / "dev.json")),
    "SQUAD_WORD_VECTORS": Variable(
        "pretrained word vectors for SQuAD (GloVe text format; the paper: 300-d glove.840B, fixed); "
        "unset: trained from scratch",
        "",
    ),
    "DEVICES": Variable(
        "where every config trains: 'cpu', one GPU id ('0'), or several for distributed training ('0,1'; 'cpu,cpu'); "
        "unset: the first GPU torch sees, else the CPU",
        "",  # computed when the suite loads: `default_devices`
        kind="devices",
    ),
    "COREF_TRAIN_DATA": Variable(
        "CoNLL-2012 coreference train file (*_conll documents)", str(BUNDLED_DATA / "coref" / "train.conll")
    ),
    "COREF_DEV_DATA": Variable("CoNLL-2012 coreference dev file", str(BUNDLED_DATA / "coref" / "dev.conll")),
    "COREF_TEST_DATA": Variable("CoNLL-2012 coreference test file", str(BUNDLED_DATA / "coref" / "test.conll")),
    "COREF_WORD_VECTORS": Variable(
        "fixed 300-d word vectors for coreference (GloVe text format); unset: trained from scratch", ""
    ),
    "SRL_DATA_FORMAT": Variable(
        "format of the SRL data files",
        "universal_propbank",
        kind="choice",
        choices=("universal_propbank", "conll2012"),
    ),
    "SRL_TRAIN_DATA": Variable(
        "SRL training data: a CoNLL-U + PropBank file, or CoNLL-2012 file or directory",
        str(BUNDLED_DATA / "srl" / "train.conllu"),
        kind="path",
    ),
    "SRL_DEV_DATA": Variable(
        "SRL development data, same format", str(BUNDLED_DATA / "srl" / "dev.conllu"), kind="path"
    ),
    "SRL_TEST_DATA": Variable("SRL test data, same format", str(BUNDLED_DATA / "srl" / "test.conllu"), kind="path"),
    "SRL_WORD_VECTORS": Variable(
        "pretrained word vectors for SRL (GloVe text format, the paper: 100-d GloVe); unset: trained from scratch", ""
    ),
    "SRL_PREDICATE_MODEL": Variable(
        "predicate_tagger archive the SRL predictor finds predicates in raw text with; unset: none", ""
    ),
}


# Variables that name the two halves of one thing: a default for one beside a user's other is a mismatch.
PAIRS = [("ELMO_OPTIONS_FILE", "ELMO_WEIGHT_FILE")]


def apply_defaults(environment: MutableMapping[str, str] = os.environ) -> None:
    """Checks the variables that are set and gives the unset ones their bundled defaults."""
    check_pairs(environment)
    defaulted = []
    for name, variable in VARIABLES.items():
        value = environment.get(name, "")
        if value:
            _check(name, variable, value)
        else:
            environment[name] = default_value(name)
            defaulted.append(name)
    if defaulted:
        logger.info(
            "Not set, so the bundled defaults are used: %s (see docs/variables.md).",
            ", ".join(defaulted),
        )
    for name in VARIABLES:
        if name.endswith(WORD_VECTORS_SUFFIX):
            environment.update(word_vectors_variables(name, environment[name]))
    environment["ELMO_DIM"] = str(elmo_dim(environment["ELMO_OPTIONS_FILE"]))
    logger.info(where_configs_train(environment["DEVICES"], set_by_user="DEVICES" not in defaulted))
    if "ELMO_WEIGHT_FILE" in defaulted:
        logger.info(
            "ELMo, where ELMO_OPTIONS_FILE and ELMO_WEIGHT_FILE are not set (a plan may set them per run): "
            "the bundled biLM in %s (%s)",
            BUNDLED_BILM,
            bundled_bilm_description(),
        )


def check_pairs(environment: Mapping[str, str] = os.environ) -> None:
    """Stops when one variable of a pair (`PAIRS`) is set without the other."""
    for first, second in PAIRS:
        if bool(environment.get(first)) != bool(environment.get(second)):
            given, missing = (first, second) if environment.get(first) else (second, first)
            raise ConfigurationError(f"{given} is set but {missing} is not: set both, or neither for the bundled biLM.")


def setting(name: str, environment: Mapping[str, str] = os.environ) -> str:
    """A variable's value, checked, or its default when it is unset; the environment is left as it is."""
    value = environment.get(name, "")
    if not value:
        return default_value(name)
    _check(name, VARIABLES[name], value)
    return value


def default_value(name: str) -> str:
    """What an unset variable takes: its bundled default, or for DEVICES the first GPU torch sees, else the CPU."""
    return default_devices() if name == "DEVICES" else VARIABLES[name].default


def _check(name: str, variable: Variable, value: str) -> None:
    """Stops with the variable's name and value when the value is not what the variable takes."""
    if variable.kind == "file" and "://" not in value and not Path(value).is_file():
        raise ConfigurationError(f"{name} names {value!r}, which is not a file ({variable.description}).")
    if variable.kind == "directory" and value != "none" and Path(value).exists() and not Path(value).is_dir():
        raise ConfigurationError(f"{name} names {value!r}, which is not a directory ({variable.description}).")
    if variable.kind == "fraction" and not (_is_number(value) and 0 < float(value) <= 1):
        raise ConfigurationError(f"{name} is {value!r}: expected a number in (0, 1] ({variable.description}).")
    if variable.kind == "path" and "://" not in value and not Path(value).exists():
        raise ConfigurationError(f"{name} names {value!r}, which does not exist ({variable.description}).")
    if variable.kind == "choice" and value not in variable.choices:
        raise ConfigurationError(
            f"{name} is {value!r}: expected one of {', '.join(variable.choices)} ({variable.description})."
        )
    if variable.kind == "count" and not (value.isdigit() and int(value) > 0):
        raise ConfigurationError(f"{name} is {value!r}: expected a positive whole number ({variable.description}).")
    if variable.kind == "devices" and not _are_devices(value):
        raise ConfigurationError(
            f"{name} is {value!r}: expected 'cpu', a GPU id, or a comma-separated list of distinct GPU ids "
            f"or of 'cpu' ({variable.description})."
        )
    if variable.kind == "devices" and not value.startswith("cpu"):
        import torch

        visible = torch.cuda.device_count()
        if max(int(name) for name in value.split(",")) >= visible:
            raise ConfigurationError(
                f"{name} is {value!r}, but torch sees {visible} GPU(s)"
                + (f" (ids 0 to {visible - 1})" if visible else "")
                + ": name GPUs that exist, or 'cpu'."
            )


def _is_number(value: str) -> bool:
    try:
        float(value)
    except ValueError:
        return False
    return True


def _are_devices(value: str) -> bool:
    """'cpu', or GPU ids, or several 'cpu': one kind of device, each GPU named once (NCCL takes a GPU once)."""
    names = [name.strip() for name in value.split(",")]
    if all(name == "cpu" for name in names):
        return True
    return all(name.isdigit() for name in names) and len(set(map(int, names))) == len(names)


WORD_VECTORS_SUFFIX = "_WORD_VECTORS"
WORD_VECTORS_LINES_READ = 10_000  # enough to see the size and whether the words are lowercased


def word_vectors_variables(name: str, path: str) -> Dict[str, str]:
    """
    What the configs need to know of the vectors file in `name` (`NER_WORD_VECTORS`, ...), read
    from the file itself so that no size is ever mistyped: `<name>_DIM`, the vectors' size, and
    `<name>_LOWERCASE`, 'true' when its words are lowercased (GloVe 6B), so the configs lowercase
    the tokens they look up. Both are '' when `name` is unset.
    """
    if not path:
        return {f"{name}_DIM": "", f"{name}_LOWERCASE": ""}
    dim, lowercased = read_word_vectors_header(path)
    return {f"{name}_DIM": str(dim), f"{name}_LOWERCASE": "true" if lowercased else "false"}


def elmo_dim(options_file: str) -> int:
    """
    The size of an ELMo vector of the biLM that `options_file` describes (twice its LSTM projection),
    as `ELMO_DIM`, for the configs that must state it (allennlp-models' own, configs/stock/).
    """
    import json

    try:
        options = json.loads(Path(options_file).read_text(encoding="utf-8"))
        return 2 * int(options["lstm"]["projection_dim"])
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
        raise ConfigurationError(
            f"{options_file}: cannot read the biLM's lstm.projection_dim from it ({type(error).__name__}: {error}); "
            "ELMO_OPTIONS_FILE must name a biLM options file in the original JSON layout"
        ) from None


def read_word_vectors_header(path: str) -> Tuple[int, bool]:
    """
    The size of the vectors in a GloVe-format text file (plain or .gz) and whether its first words
    are all lowercase.
    """
    import gzip

    opener = gzip.open if path.endswith(".gz") else open
    dim, lowercased = None, True
    try:
        with opener(path, "rt", encoding="utf-8") as lines:
            for number, line in enumerate(lines, start=1):
                if number > WORD_VECTORS_LINES_READ:
                    break
                fields = line.rstrip("\n").split(" ")
                if dim is None:
                    dim = len(fields) - 1
                if dim < 1 or len(fields) - 1 != dim:
                    raise ConfigurationError(
                        f"{path}, line {number}: expected a word and {dim} numbers separated by spaces "
                        f"(GloVe's text format), found {len(fields)} fields"
                    )
                lowercased = lowercased and fields[0] == fields[0].lower()
    except (OSError, UnicodeDecodeError, EOFError) as error:
        raise ConfigurationError(f"{path}: cannot read it as word vectors in GloVe's text format ({error})") from None
    if dim is None:
        raise ConfigurationError(f"{path}: the word vectors file is empty")
    return dim, lowercased


def default_devices() -> str:
    """Where configs train when DEVICES is unset: the first GPU torch sees, else the CPU."""
    import torch

    return "0" if torch.cuda.is_available() else "cpu"


def where_configs_train(devices: str, set_by_user: bool) -> str:
    """One line for the log: the device(s) every config trains on, and why."""
    names = [name.strip() for name in devices.split(",")]
    if names == ["cpu"]:
        where = "on the CPU"
    elif len(names) == 1:
        where = f"on GPU {names[0]}"
    elif names[0] == "cpu":
        where = f"in {len(names)} processes on the CPU (AllenNLP's distributed trainer)"
    else:
        where = f"on GPUs {', '.join(names)}, one process each (AllenNLP's distributed trainer)"
    if set_by_user:
        return f"Configs train {where}: DEVICES={devices}."
    why = "the first GPU torch sees" if names != ["cpu"] else "torch sees no GPU"
    return f"Configs train {where}: DEVICES is not set and {why} (set DEVICES to choose: 'cpu', '0', '0,1')."


def bundled_bilm_description() -> str:
    """The first line of the bundled biLM's model card, which names what it is."""
    card = BUNDLED_BILM / "MODEL_CARD.md"
    return card.read_text(encoding="utf-8").splitlines()[0].lstrip("# ") if card.is_file() else "no model card"
