"""
Checks that `allennlp`, run from the repository root, registers every component the suite uses.

`allennlp test-install` exits 0 even when part of allennlp-models fails to import (with setuptools
82, py-rouge's `import pkg_resources` fails and `crf_tagger`, `srl` and others silently vanish), so
the install script runs this instead: it loads the plugins exactly as the `allennlp` command does
and exits 1, listing what is missing, if any name is not registered.

    python scripts/check_install.py
"""
import os
import sys
from pathlib import Path

from allennlp.common.plugins import import_plugins
from allennlp.data import DatasetReader, Tokenizer
from allennlp.models import Model
from allennlp.modules.seq2seq_encoders import Seq2SeqEncoder
from allennlp.modules.token_embedders import TokenEmbedder
from allennlp.training.metrics import Metric
from allennlp.predictors import Predictor
from allennlp.training.learning_rate_schedulers import LearningRateScheduler

REQUIRED = {
    Model: [
        "bilstm_crf_tagger", "deep_srl", "predicate_tagger",  # ours
        "crf_tagger", "srl", "coref", "bidaf", "esim", "bcn",  # allennlp-models
    ],
    DatasetReader: ["conll2003_ner", "conll2003", "srl", "coref", "squad", "snli", "sst_tokens", "srl_conll2012", "srl_universal_propbank", "propbank_predicates"],
    Predictor: ["ner_tagger", "srl_frames"],
    Tokenizer: ["blank_spacy"],
    TokenEmbedder: ["fast_elmo", "elmo_token_embedder"],
    Seq2SeqEncoder: ["alternating_lstm"],
    Metric: ["conll2005_srl", "span_f1"],
    LearningRateScheduler: ["reduce_on_plateau"],
}


def main() -> int:
    os.chdir(Path(__file__).resolve().parent.parent)
    import_plugins()
    missing = [
        f"{base.__name__} {name!r}"
        for base, names in REQUIRED.items()
        for name in names
        if name not in base.list_available()
    ]
    scheduler = LearningRateScheduler.by_name("reduce_on_plateau")
    if scheduler.__module__ != "allennlp_compat":
        missing.append("the torch 2.x reduce_on_plateau scheduler of allennlp_compat")
    if missing:
        print("Not registered: " + "; ".join(missing), file=sys.stderr)
        return 1
    count = sum(len(names) for names in REQUIRED.values())
    print(f"check_install: all {count} components the suite uses are registered.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
