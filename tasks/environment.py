"""
The environment variables that point the configs at data and ELMo weights.

Configs read them with `std.extVar`, which fails on an unset variable, so when the suite is loaded
(as an AllenNLP plugin, or imported) every unset variable is given its bundled default: the small
sample data we wrote and the bundled biLM, so a config runs offline out of the box. A variable that
is set must name an existing file: otherwise loading stops at once, naming the variable and path.
"""
import logging
import os
from pathlib import Path
from typing import Dict, NamedTuple, Tuple

from allennlp.common.checks import ConfigurationError

logger = logging.getLogger(__name__)

PROJECT_ROOT = Path(__file__).resolve().parent.parent
BUNDLED_DATA = PROJECT_ROOT / "bundled" / "data"
BUNDLED_BILM = PROJECT_ROOT / "bundled" / "bilm"


class Variable(NamedTuple):
    description: str
    default: str  # "" means the config's own fallback (for optional inputs)
    kind: str = "file"  # "file" must exist; "directory" is made on first use; "fraction" and "count" are numbers;
    # "devices": see DEVICES; "path": an existing file or directory; "choice": one of `choices`
    choices: Tuple[str, ...] = ()


VARIABLES: Dict[str, Variable] = {
    "ELMO_OPTIONS_FILE": Variable(
        "ELMo options.json (original bilm-tf layout)", str(BUNDLED_BILM / "options.json")
    ),
    "ELMO_WEIGHT_FILE": Variable(
        "ELMo weights.hdf5 (original bilm-tf layout)", str(BUNDLED_BILM / "weights.hdf5")
    ),
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
    "SNLI_TRAIN_DATA": Variable("SNLI jsonl, train split (snli_1.0_train.jsonl)", str(BUNDLED_DATA / "snli" / "train.jsonl")),
    "SNLI_DEV_DATA": Variable("SNLI jsonl, dev split (snli_1.0_dev.jsonl)", str(BUNDLED_DATA / "snli" / "dev.jsonl")),
    "SNLI_TEST_DATA": Variable("SNLI jsonl, test split (snli_1.0_test.jsonl)", str(BUNDLED_DATA / "snli" / "test.jsonl")),
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
        "where to train: 'cpu', one GPU id ('0'), or several for distributed training ('0,1'; 'cpu,cpu')",
        "cpu",
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
        "format of the SRL data files", "universal_propbank", kind="choice",
        choices=("universal_propbank", "conll2012"),
    ),
    "SRL_TRAIN_DATA": Variable(
        "SRL training data: a CoNLL-U + PropBank file, or CoNLL-2012 file or directory",
        str(BUNDLED_DATA / "srl" / "train.conllu"), kind="path",
    ),
    "SRL_DEV_DATA": Variable("SRL development data, same format", str(BUNDLED_DATA / "srl" / "dev.conllu"), kind="path"),
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


def apply_defaults(environment=os.environ) -> None:
    """Checks the variables that are set and gives the unset ones their bundled defaults."""
    for first, second in PAIRS:
        if bool(environment.get(first)) != bool(environment.get(second)):
            given, missing = (first, second) if environment.get(first) else (second, first)
            raise ConfigurationError(f"{given} is set but {missing} is not: set both, or neither for the bundled biLM.")
    defaulted = []
    for name, variable in VARIABLES.items():
        value = environment.get(name, "")
        if value:
            _check(name, variable, value)
        else:
            environment[name] = variable.default
            defaulted.append(name)
    if defaulted:
        logger.info(
            "Not set, so the bundled defaults are used: %s (see README, 'Data and weights').",
            ", ".join(defaulted),
        )
    if "ELMO_WEIGHT_FILE" in defaulted:
        logger.info("ELMo: the bundled biLM in %s (%s)", BUNDLED_BILM, bundled_bilm_description())


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
        raise ConfigurationError(f"{name} is {value!r}: expected one of {', '.join(variable.choices)} ({variable.description}).")
    if variable.kind == "count" and not (value.isdigit() and int(value) > 0):
        raise ConfigurationError(f"{name} is {value!r}: expected a positive whole number ({variable.description}).")
    if variable.kind == "devices" and not _are_devices(value):
        raise ConfigurationError(
            f"{name} is {value!r}: expected 'cpu', a GPU id, or a comma-separated list of distinct GPU ids "
            f"or of 'cpu' ({variable.description})."
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


def bundled_bilm_description() -> str:
    """The first line of the bundled biLM's model card, which names what it is."""
    card = BUNDLED_BILM / "MODEL_CARD.md"
    return card.read_text(encoding="utf-8").splitlines()[0].lstrip("# ") if card.is_file() else "no model card"
