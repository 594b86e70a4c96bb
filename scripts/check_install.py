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

from allennlp.commands.subcommand import Subcommand
from allennlp.commands.train import TrainModel
from allennlp.common.plugins import import_plugins
from allennlp.data import DatasetReader, Tokenizer, Vocabulary
from allennlp.models import Model
from allennlp.modules.seq2seq_encoders import Seq2SeqEncoder
from allennlp.modules.token_embedders import TokenEmbedder
from allennlp.predictors import Predictor
from allennlp.training.checkpointer import Checkpointer
from allennlp.training.learning_rate_schedulers import LearningRateScheduler
from allennlp.training.metrics import Metric
from allennlp.training.moving_average import MovingAverage

REQUIRED = {
    Model: [
        "bilstm_crf_tagger",
        "elmo_bcn",
        "elmo_esim",
        "e2e_coref",
        "deep_srl",
        "predicate_tagger",  # ours
        "crf_tagger",
        "srl",
        "coref",
        "bidaf",
        "esim",
        "bcn",  # allennlp-models
        "bidaf_self_attention",
        "bidaf_squad_v1",  # ours (SQuAD)
    ],
    DatasetReader: [
        "conll2003_ner",
        "sst_trees",
        "snli_jsonl",
        "squad_v1",
        "conll2012_coref",
        "srl_conll2012",
        "srl_universal_propbank",
        "propbank_predicates",  # ours
        "conll2003",
        "srl",
        "coref",
        "squad",
        "snli",
        "sst_tokens",  # allennlp-models
    ],
    Predictor: [
        "ner_tagger",
        "sentiment_classifier",
        "entailment_classifier",
        "squad_answerer",
        "coref_resolver",
        "srl_frames",
    ],
    Tokenizer: ["blank_spacy"],
    TokenEmbedder: ["fast_elmo", "elmo_token_embedder"],
    Vocabulary: ["complete_tag_schemes"],
    LearningRateScheduler: ["reduce_on_plateau", "exponential_decay"],
    Seq2SeqEncoder: ["alternating_lstm"],
    Metric: ["conll2012_coref_scores", "conll2005_srl", "span_f1"],
    MovingAverage: ["resumable_exponential"],
    Subcommand: [
        "export-bilm",
        "finetune-bilm",
        "elmo-cache",
        "elmo-embed",
        "reproduce",
        "report",
        "elmo-similarity",
        "elmo-index",
        "elmo-neighbours",
        "elmo-probe",  # ours (inspect)
        "demo",
    ],
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
    for base, mended in ((TrainModel, "allennlp_compat.distributed"), (Checkpointer, "allennlp_compat.checkpointer")):
        if base.resolve_class_name("default")[0].__module__ != mended:
            missing.append(f"the default {base.__name__} of {mended}")
    if missing:
        print("Not registered: " + "; ".join(missing), file=sys.stderr)
        return 1
    count = sum(len(names) for names in REQUIRED.values())
    print(f"check_install: all {count} components the suite uses are registered.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
