"""Score one trained SRL model's predictions every way AllenNLP users have seen them, side by side.

AllenNLP users found SRL F1 hard to reproduce: the number AllenNLP printed read lower than the
official CoNLL scorer's. This script runs a `deep_srl` archive once over a data file and scores
the same network outputs five ways:

  official        srl-eval.pl's definition (tasks/srl/metrics.py) on our decoded tags: Viterbi
                  over log-probabilities under BIO constraints (He et al. 2017). What
                  `allennlp train` / `allennlp evaluate` report as f1-measure-overall.
  srl-eval.pl     the official Perl script itself, through allennlp-models' SrlEvalScorer, on the
                  same tags (needs perl): a check that "official" is the script's number.
  span_f1         AllenNLP's SpanBasedF1Measure (V ignored, as its SRL model set it up) on the
                  same decoded tags: what the metric alone changes.
  span_f1/argmax  span_f1 on the per-word argmax, which is what AllenNLP's SRL model fed it during
                  validation and evaluation until it moved to the Perl script (allenai/allennlp#3164,
                  August 2019): no decoding at all.
  official/prob   the official score on tags Viterbi-decoded over probabilities instead of
                  log-probabilities, as allennlp-models' SemanticRoleLabeler decodes.

    python scripts/compare_srl_scores.py runs/srl/model.tar.gz data/test.conllu --output-file scores.json
"""

import argparse
import json
import shutil
from pathlib import Path
from typing import Dict, List

import torch
from allennlp.data.data_loaders import SimpleDataLoader
from allennlp.models.archival import load_archive
from allennlp.nn.util import viterbi_decode
from allennlp.training.metrics import SpanBasedF1Measure
from allennlp_models.structured_prediction.metrics.srl_eval_scorer import SrlEvalScorer
from allennlp_models.structured_prediction.models.srl import convert_bio_tags_to_conll_format

import tasks  # noqa: F401  (registers the suite's components)
from tasks.srl.metrics import Conll2005SrlScore
from tasks.srl.model import DeepSrl


def score(archive_file: str, data_file: str, batch_size: int) -> Dict[str, Dict[str, float]]:
    archive = load_archive(archive_file)
    model = archive.model.eval()
    if not isinstance(model, DeepSrl):
        raise SystemExit(f"{archive_file}: expected a deep_srl model, found {type(model).__name__}")
    instances = list(archive.validation_dataset_reader.read(data_file))
    loader = SimpleDataLoader(instances, batch_size, vocab=model.vocab)
    label = lambda index: model.vocab.get_token_from_index(index, model.label_namespace)  # noqa: E731

    official, official_probabilities = Conll2005SrlScore(), Conll2005SrlScore()
    span_f1 = SpanBasedF1Measure(model.vocab, tag_namespace=model.label_namespace, ignore_classes=["V"])
    span_f1_argmax = SpanBasedF1Measure(model.vocab, tag_namespace=model.label_namespace, ignore_classes=["V"])
    script = SrlEvalScorer(ignore_classes=["V"]) if shutil.which("perl") else None
    invalid_argmax = propositions = 0
    with torch.no_grad():
        for batch in loader:
            output = model(**batch)
            logits, mask = output["logits"], output["mask"]
            lengths = mask.sum(dim=1).tolist()
            gold = [entry["gold_tags"] for entry in batch["metadata"]]
            decoded = model.decode(logits, mask)
            decoded_tags = [[label(index) for index in path] for path in decoded]
            official(decoded_tags, gold)
            official_probabilities(_viterbi_on_probabilities(model, logits, lengths), gold)
            span_f1(_one_hot(decoded, logits), batch["tags"], mask)
            span_f1_argmax(logits, batch["tags"], mask)
            for row, length in zip(logits.argmax(dim=-1).tolist(), lengths):
                tags = [label(index) for index in row[:length]]
                invalid_argmax += any(t.startswith("I-") and p[2:] != t[2:] for p, t in zip(["O"] + tags, tags))
            propositions += len(gold)
            if script is not None:
                # The script only reads each proposition's target word: a placeholder keeps odd words
                # (a "-", which it takes for "no predicate", or one with spaces) from shifting columns.
                script(
                    [entry["verb_index"] for entry in batch["metadata"]],
                    [["V"] * len(entry["words"]) for entry in batch["metadata"]],
                    [convert_bio_tags_to_conll_format(tags) for tags in decoded_tags],
                    [convert_bio_tags_to_conll_format(tags) for tags in gold],
                )
    scores = {
        "official": _overall(official.get_metric()),
        "span_f1": _overall(span_f1.get_metric()),
        "span_f1/argmax": _overall(span_f1_argmax.get_metric()),
        "official/prob": _overall(official_probabilities.get_metric()),
        "propositions": {"count": propositions, "argmax_invalid_bio": invalid_argmax},
    }
    if script is not None:
        scores["srl-eval.pl"] = _overall(script.get_metric())
    return scores


def _viterbi_on_probabilities(model: DeepSrl, logits: torch.Tensor, lengths: List[int]) -> List[List[str]]:
    """The tags allennlp-models' SemanticRoleLabeler would decode: Viterbi summing probabilities."""
    probabilities = torch.softmax(logits, dim=-1)
    paths = []
    for sequence, length in zip(probabilities, lengths):
        path, _ = viterbi_decode(
            sequence[:length], model._transitions, allowed_start_transitions=model._start_transitions
        )
        paths.append([model.vocab.get_token_from_index(index, model.label_namespace) for index in path])
    return paths


def _one_hot(paths: List[List[int]], logits: torch.Tensor) -> torch.Tensor:
    scores = torch.zeros_like(logits)
    for row, path in enumerate(paths):
        scores[row, torch.arange(len(path)), torch.tensor(path)] = 1.0
    return scores


def _overall(metrics: Dict[str, float]) -> Dict[str, float]:
    return {
        name.replace("-overall", ""): round(100 * metrics[name], 2) for name in metrics if name.endswith("-overall")
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("archive_file")
    parser.add_argument("data_file")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--output-file", type=Path)
    arguments = parser.parse_args()
    scores = score(arguments.archive_file, arguments.data_file, arguments.batch_size)
    for name, values in scores.items():
        print(f"{name:15s} " + "  ".join(f"{key} {value}" for key, value in values.items()))
    if arguments.output_file:
        arguments.output_file.write_text(json.dumps(scores, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
