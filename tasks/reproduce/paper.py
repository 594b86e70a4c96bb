"""
What the paper reports, and how each of its tasks is named and scored here.

Source of every number: Peters et al. 2018, "Deep contextualized word representations" (NAACL),
https://arxiv.org/abs/1802.05365. Table 1: test set; Tables 2 and 3: development set. The paper's
± is the standard deviation over five runs with different random seeds.
"""

from typing import Dict, NamedTuple, Optional, Tuple

SOURCE = 'Peters et al. 2018, "Deep contextualized word representations", NAACL (arXiv:1802.05365)'


class Task(NamedTuple):
    title: str  # as the paper names the task
    metric: str  # as the paper names the metric
    metric_key: str  # the metric in our metrics.json, without its split prefix
    paper_data: str  # the data the paper used
    paper_vectors: str  # the word vectors the paper's model took
    scale: float = 100.0  # our metrics are fractions, the paper's percentages


# Keyed by the task's name in configs/<task>_elmo.jsonnet.
TASKS: Dict[str, Task] = {
    "squad": Task("SQuAD", "F1", "f1", "SQuAD 1.1", "GloVe 840B 300-d, fixed"),
    "snli": Task("SNLI", "accuracy", "accuracy", "SNLI 1.0", "GloVe 840B 300-d, fixed"),
    "srl": Task("SRL", "F1", "f1-measure-overall", "OntoNotes 5.0 (CoNLL-2012 SRL)", "GloVe 100-d, fine-tuned"),
    "coref": Task(
        "Coref", "average F1", "coref_f1", "OntoNotes 5.0 (CoNLL-2012 coreference)", "GloVe 840B 300-d, fixed"
    ),
    "ner": Task("NER", "F1", "f1-measure-overall", "CoNLL-2003 English", "Senna 50-d, fine-tuned"),
    "sst": Task("SST-5", "accuracy", "accuracy", "Stanford Sentiment Treebank, 5 classes", "GloVe 840B 300-d, fixed"),
}


class Score(NamedTuple):
    value: str  # as printed in the paper, with its precision
    std: Optional[str] = None  # over five seeds, where the paper gives one


class Table1Row(NamedTuple):
    baseline: Score
    elmo: Score
    absolute: str  # the paper's "increase", absolute
    relative: str  # and relative: the reduction of the baseline's error, in percent


# Table 1: test set, "our baseline" and "ELMo + baseline", and the paper's "increase" column.
TABLE_1: Dict[str, Table1Row] = {
    "squad": Table1Row(Score("81.1"), Score("85.8"), "4.7", "24.9"),
    "snli": Table1Row(Score("88.0"), Score("88.7", "0.17"), "0.7", "5.8"),
    "srl": Table1Row(Score("81.4"), Score("84.6"), "3.2", "17.2"),
    "coref": Table1Row(Score("67.2"), Score("70.4"), "3.2", "9.8"),
    "ner": Table1Row(Score("90.15"), Score("92.22", "0.10"), "2.06", "21"),
    "sst": Table1Row(Score("51.4"), Score("54.7", "0.5"), "3.3", "6.8"),
}

# The plan's configs (configs/<task>_<config>.jsonnet, configs/ablations/<task>_<ablation>.jsonnet).
BASELINE, ELMO = "baseline", "elmo"
# allennlp-models' own configs (configs/stock/<task>_<name>.jsonnet), to check the suite against code it
# did not write (docs/elmo_losses.md).
STOCK_PREFIX = "stock_"
STOCK_CONFIGS = ("stock_esim", "stock_esim_elmo", "stock_crf_tagger", "stock_crf_tagger_elmo")
# Each task's stock pair: allennlp-models' config without ELMo and with AllenNLP's own ELMo embedder.
STOCK_PAIRS = {"snli": ("stock_esim", "stock_esim_elmo"), "ner": ("stock_crf_tagger", "stock_crf_tagger_elmo")}

ABLATIONS = (
    "top_layer",
    "all_layers_lambda_1",
    "all_layers_lambda_0_001",
    "input_only",
    "input_and_output",
    "output_only",
    "gamma_1",  # γ starting at 1, as the paper's code, where a task's config starts it elsewhere (SNLI, SQuAD, SST-5)
)

# Ablations that keep the paper's own ELMo setting where a task's config departs from it: the report
# sets their runs beside the baseline as ELMo runs of their own (a row of Table 1, a panel of Figure 1),
# labelled in words.
ELMO_VARIANTS = {"gamma_1": "γ from 1, as the paper"}

# Table 2: development set; the baseline, ELMo from the top biLM layer only, and a learned mix of
# all layers with λ = 1 and λ = 0.001.
TABLE_2_COLUMNS = {
    BASELINE: "Baseline",
    "top_layer": "Last only",
    "all_layers_lambda_1": "All layers, λ=1",
    "all_layers_lambda_0_001": "All layers, λ=0.001",
}
TABLE_2: Dict[str, Dict[str, float]] = {
    "squad": {BASELINE: 80.8, "top_layer": 84.7, "all_layers_lambda_1": 85.0, "all_layers_lambda_0_001": 85.2},
    "snli": {BASELINE: 88.1, "top_layer": 89.1, "all_layers_lambda_1": 89.3, "all_layers_lambda_0_001": 89.5},
    "srl": {BASELINE: 81.6, "top_layer": 84.1, "all_layers_lambda_1": 84.6, "all_layers_lambda_0_001": 84.8},
}

# Table 3: development set; ELMo at the input only, at the input and the output of the biRNN, and
# at the output only.
TABLE_3_COLUMNS = {"input_only": "Input only", "input_and_output": "Input & output", "output_only": "Output only"}
TABLE_3: Dict[str, Dict[str, float]] = {
    "squad": {"input_only": 85.1, "input_and_output": 85.6, "output_only": 84.8},
    "snli": {"input_only": 88.9, "input_and_output": 89.5, "output_only": 88.7},
    "srl": {"input_only": 84.7, "input_and_output": 84.3, "output_only": 80.9},
}

# Table 7 (§A.1): development set perplexity of the biLM before and after fine-tuning it for one
# epoch on the task's training text, for the tasks it gives both figures for.
TABLE_7: Dict[str, Tuple[float, float]] = {
    "ner": (103.2, 46.3),
    "snli": (72.1, 16.8),
    "squad": (99.1, 43.5),  # SQuAD's contexts
    "sst": (131.5, 78.6),
}

# The biLM behind every number above: 2 biLSTM layers of 4096 cells with 512-d projections over a
# character CNN of 2048 filters and 2 highway layers, trained on the 1B Word Benchmark (§3.4).
PAPER_BILM = {"lstm_dim": 4096, "projection_dim": 512, "n_layers": 2, "n_filters": 2048, "n_highway": 2}

# Published weight files we can recognise (sha256), with what they are.
KNOWN_BILMS = {
    "747ba97abce8a5f446558369e10bb0f7931437a46867476fdd156f5d7f576229": (
        "the published small ELMo (elmo_2x1024_128_2048cnn_1xhighway), not the paper's original"
    ),
}


def relative_error_reduction(baseline: float, elmo: float) -> float:
    """The paper's relative increase: the share of the baseline's error (100 - score) that ELMo removes, in %."""
    return 100.0 * (elmo - baseline) / (100.0 - baseline)
