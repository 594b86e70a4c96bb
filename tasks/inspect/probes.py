"""
Layer probes on frozen biLM features (`allennlp elmo-probe`): what each layer holds.

- Part of speech (`upos`, `xpos`): a linear softmax classifier per view, trained on one split's
  token vectors and scored on another's (the paper's Table 6, where the first biLSTM layer tags
  best). Features are standardised with the training split's mean and deviation; the classifier
  is trained full-batch by L-BFGS for a fixed number of iterations with an L2 penalty, seeded, so
  a run is repeatable.
- Predicate sense (`sense`): 1-nearest-neighbour on PropBank rolesets, the open stand-in for the
  paper's word-sense disambiguation (Table 5, where the second layer is best). Each roleset seen in
  training is the average vector of its predicates; a test predicate takes the roleset nearest
  (cosine) among those of its lemma (`come` for `come.03`), or the lemma's first roleset
  (`come.01`) when training never saw the lemma, as the paper falls back to WordNet's first sense.

Each task also gets a baseline without the biLM: the word's most frequent tag in training (the
overall most frequent tag for unseen words), and the lemma's most frequent roleset.
"""

import logging
import random
from collections import Counter, defaultdict
from typing import Dict, List, NamedTuple, Optional, Sequence

import numpy
import torch

from data_readers.conllu_words import AnnotatedSentence
from tasks.common.plots import grouped_bars
from tasks.elmo.frozen_bilm import FrozenBilm
from tasks.inspect.vectors import layer_stacks, unit_rows, view_title, views

logger = logging.getLogger(__name__)

TAG_TASKS = ("upos", "xpos")
TASKS = TAG_TASKS + ("sense",)


class ProbeSettings(NamedTuple):
    l2: float = 1e-4  # times the squared weights, added to the mean cross-entropy
    iterations: int = 300  # of L-BFGS, full batch
    seed: int = 13


def token_features(
    bilm: FrozenBilm,
    sentences: Sequence[Sequence[str]],
    mix_weights: Optional[Sequence[float]] = None,
    batch_size: int = 64,
) -> Dict[str, numpy.ndarray]:
    """Every view's vectors for every token of `sentences`, in order: view -> `(tokens, dim)`."""
    stacks = dict(layer_stacks(bilm, sentences, batch_size))
    ordered = [stacks[index] for index in range(len(sentences)) if sentences[index]]
    return {
        name: numpy.ascontiguousarray(vectors)
        for name, vectors in views(numpy.concatenate(ordered, axis=1), mix_weights).items()
    }


def subset(sentences: List[AnnotatedSentence], limit: Optional[int], seed: int) -> List[AnnotatedSentence]:
    """At most `limit` sentences drawn with `seed`, kept in file order; all of them without a limit."""
    if limit is None or limit >= len(sentences):
        return sentences
    chosen = sorted(random.Random(seed).sample(range(len(sentences)), limit))
    return [sentences[index] for index in chosen]


class LinearProbe(torch.nn.Module):
    """A softmax classifier on standardised features."""

    def __init__(self, mean: torch.Tensor, scale: torch.Tensor, num_classes: int) -> None:
        super().__init__()
        self.register_buffer("mean", mean)
        self.register_buffer("scale", scale)
        self.linear = torch.nn.Linear(mean.numel(), num_classes)

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        return self.linear((features - self.mean) / self.scale)


def train_linear_probe(
    features: numpy.ndarray, labels: numpy.ndarray, num_classes: int, settings: ProbeSettings = ProbeSettings()
) -> LinearProbe:
    """Fits a `LinearProbe` to `features` `(examples, dim)` and integer `labels`."""
    torch.manual_seed(settings.seed)
    inputs = torch.from_numpy(numpy.asarray(features, dtype=numpy.float32))
    targets = torch.from_numpy(numpy.asarray(labels, dtype=numpy.int64))
    probe = LinearProbe(inputs.mean(dim=0), inputs.std(dim=0).clamp(min=1e-6), num_classes)
    optimizer = torch.optim.LBFGS(
        probe.linear.parameters(), lr=1.0, max_iter=settings.iterations, history_size=20, line_search_fn="strong_wolfe"
    )

    def closure():
        optimizer.zero_grad()
        loss = (
            torch.nn.functional.cross_entropy(probe(inputs), targets) + settings.l2 * probe.linear.weight.pow(2).sum()
        )
        loss.backward()
        return loss

    optimizer.step(closure)
    return probe


def tag_probe(
    train_features: numpy.ndarray,
    train_tags: Sequence[str],
    test_features: numpy.ndarray,
    test_tags: Sequence[str],
    settings: ProbeSettings = ProbeSettings(),
) -> float:
    """Test accuracy of a linear probe trained on the training tags; a tag training never saw counts as an error."""
    labels = sorted(set(train_tags))
    number = {tag: index for index, tag in enumerate(labels)}
    probe = train_linear_probe(train_features, numpy.array([number[tag] for tag in train_tags]), len(labels), settings)
    with torch.no_grad():
        predicted = probe(torch.from_numpy(numpy.asarray(test_features, dtype=numpy.float32))).argmax(dim=1).numpy()
    return float(numpy.mean([labels[guess] == gold for guess, gold in zip(predicted, test_tags)]))


def most_frequent_tag_accuracy(
    train_words: Sequence[str], train_tags: Sequence[str], test_words: Sequence[str], test_tags: Sequence[str]
) -> float:
    """The baseline: each word's most frequent training tag; the most frequent tag overall for unseen words."""
    by_word: Dict[str, Counter] = defaultdict(Counter)
    for word, tag in zip(train_words, train_tags):
        by_word[word][tag] += 1
    overall = Counter(train_tags).most_common(1)[0][0]
    guesses = [by_word[word].most_common(1)[0][0] if word in by_word else overall for word in test_words]
    return float(numpy.mean([guess == gold for guess, gold in zip(guesses, test_tags)]))


def lemma(roleset: str) -> str:
    """`come` for `come.03` (a roleset without a sense number is its own lemma)."""
    return roleset.rsplit(".", 1)[0]


class SenseResult(NamedTuple):
    accuracy: float  # over every test predicate
    ambiguous_accuracy: float  # over test predicates whose lemma had two or more rolesets in training
    predicates: int
    ambiguous_predicates: int


def sense_probe(
    train_features: numpy.ndarray,
    train_rolesets: Sequence[str],
    test_features: numpy.ndarray,
    test_rolesets: Sequence[str],
) -> SenseResult:
    """1-nearest-neighbour roleset by cosine to each training roleset's average vector, among the lemma's rolesets."""
    by_roleset: Dict[str, List[int]] = defaultdict(list)
    for row, roleset in enumerate(train_rolesets):
        by_roleset[roleset].append(row)
    centroids = {roleset: train_features[rows].mean(axis=0) for roleset, rows in by_roleset.items()}
    candidates: Dict[str, List[str]] = defaultdict(list)
    for roleset in sorted(centroids):
        candidates[lemma(roleset)].append(roleset)
    guesses = []
    for vector, gold in zip(unit_rows(numpy.asarray(test_features)), test_rolesets):
        options = candidates.get(lemma(gold))
        if not options:
            guesses.append(f"{lemma(gold)}.01")
            continue
        similarities = unit_rows(numpy.stack([centroids[roleset] for roleset in options])) @ vector
        guesses.append(options[int(numpy.argmax(similarities))])
    return _sense_result(guesses, test_rolesets, candidates)


def most_frequent_sense(train_rolesets: Sequence[str], test_rolesets: Sequence[str]) -> SenseResult:
    """The baseline: the lemma's most frequent training roleset, else its first (`.01`)."""
    counts: Dict[str, Counter] = defaultdict(Counter)
    for roleset in train_rolesets:
        counts[lemma(roleset)][roleset] += 1
    guesses = [
        counts[lemma(gold)].most_common(1)[0][0] if lemma(gold) in counts else f"{lemma(gold)}.01"
        for gold in test_rolesets
    ]
    candidates = {name: sorted(rolesets) for name, rolesets in counts.items()}
    return _sense_result(guesses, test_rolesets, candidates)


def _sense_result(guesses: Sequence[str], golds: Sequence[str], candidates: Dict[str, List[str]]) -> SenseResult:
    right = [guess == gold for guess, gold in zip(guesses, golds)]
    ambiguous = [len(candidates.get(lemma(gold), [])) >= 2 for gold in golds]
    ambiguous_right = [correct for correct, counted in zip(right, ambiguous) if counted]
    return SenseResult(
        float(numpy.mean(right)) if right else float("nan"),
        float(numpy.mean(ambiguous_right)) if ambiguous_right else float("nan"),
        len(right),
        len(ambiguous_right),
    )


def run_probes(
    bilm: FrozenBilm,
    train: List[AnnotatedSentence],
    test: List[AnnotatedSentence],
    tasks: Sequence[str] = TASKS,
    mix_weights: Optional[Sequence[float]] = None,
    settings: ProbeSettings = ProbeSettings(),
    batch_size: int = 64,
) -> Dict:
    """Every task's score per view and its baseline, with the split sizes: the content of probe.json."""
    features = {}
    for split, sentences in (("train", train), ("test", test)):
        logger.info("Computing the %s split's token vectors (%d sentences)", split, len(sentences))
        features[split] = token_features(bilm, [s.words for s in sentences], mix_weights, batch_size)
    column = {
        split: {
            "words": [word for s in sentences for word in s.words],
            "upos": [tag for s in sentences for tag in s.upos],
            "xpos": [tag for s in sentences for tag in s.xpos],
            "rolesets": [roleset for s in sentences for roleset in s.rolesets],
        }
        for split, sentences in (("train", train), ("test", test))
    }
    results: Dict = {"views": list(features["train"]), "tasks": {}}
    for split, sentences in (("train", train), ("test", test)):
        results[split] = {
            "sentences": len(sentences),
            "tokens": len(column[split]["words"]),
            "predicates": sum(roleset is not None for roleset in column[split]["rolesets"]),
        }
    for task in tasks:
        logger.info("Probing %s", task)
        if task in TAG_TASKS:
            train_tags, test_tags = column["train"][task], column["test"][task]
            results["tasks"][task] = {
                "metric": "accuracy",
                "views": {
                    name: tag_probe(features["train"][name], train_tags, features["test"][name], test_tags, settings)
                    for name in results["views"]
                },
                "baseline": most_frequent_tag_accuracy(
                    column["train"]["words"], train_tags, column["test"]["words"], test_tags
                ),
                "baseline_name": "most frequent tag of the word",
            }
        else:
            rows = {
                split: [row for row, roleset in enumerate(column[split]["rolesets"]) if roleset is not None]
                for split in column
            }
            train_rolesets = [column["train"]["rolesets"][row] for row in rows["train"]]
            test_rolesets = [column["test"]["rolesets"][row] for row in rows["test"]]
            scores = {
                name: sense_probe(
                    features["train"][name][rows["train"]],
                    train_rolesets,
                    features["test"][name][rows["test"]],
                    test_rolesets,
                )
                for name in results["views"]
            }
            baseline = most_frequent_sense(train_rolesets, test_rolesets)
            results["tasks"][task] = {
                "metric": "accuracy",
                "views": {name: score.accuracy for name, score in scores.items()},
                "ambiguous_views": {name: score.ambiguous_accuracy for name, score in scores.items()},
                "baseline": baseline.accuracy,
                "ambiguous_baseline": baseline.ambiguous_accuracy,
                "baseline_name": "most frequent roleset of the lemma",
                "predicates": baseline.predicates,
                "ambiguous_predicates": baseline.ambiguous_predicates,
            }
    return results


TASK_TITLES = {"upos": "UPOS", "xpos": "XPOS (PTB)", "sense": "roleset, 1-NN"}


def probe_markdown(results: Dict) -> str:
    """Accuracy (%) per view and task, the baselines last; the best view of each task in bold."""
    tasks = list(results["tasks"])
    headers = [TASK_TITLES[task] for task in tasks]
    if "sense" in results["tasks"]:
        headers.append("roleset, 1-NN, lemmas with ≥ 2 rolesets")
    best = {task: max(scores["views"], key=scores["views"].get) for task, scores in results["tasks"].items()}
    lines = ["| view | " + " | ".join(headers) + " |", "|---|" + "---|" * len(headers)]

    def cell(value: float, bold: bool) -> str:
        return f"**{100 * value:.2f}**" if bold else f"{100 * value:.2f}"

    for name in results["views"]:
        cells = [cell(results["tasks"][task]["views"][name], best[task] == name) for task in tasks]
        if "sense" in results["tasks"]:
            ambiguous = results["tasks"]["sense"]["ambiguous_views"]
            cells.append(cell(ambiguous[name], max(ambiguous, key=ambiguous.get) == name))
        lines.append(f"| {view_title(name)} | " + " | ".join(cells) + " |")
    baselines = [f"{100 * results['tasks'][task]['baseline']:.2f}" for task in tasks]
    if "sense" in results["tasks"]:
        baselines.append(f"{100 * results['tasks']['sense']['ambiguous_baseline']:.2f}")
    lines.append("| no biLM: most frequent tag of the word / roleset of the lemma | " + " | ".join(baselines) + " |")
    sizes = ", ".join(
        f"{split}: {results[split]['sentences']} sentences, {results[split]['tokens']} tokens, "
        f"{results[split]['predicates']} predicates"
        for split in ("train", "test")
    )
    lines += ["", f"Split sizes: {sizes}."]
    if "sense" in results["tasks"]:
        sense = results["tasks"]["sense"]
        lines.append(
            f"Rolesets scored on {sense['predicates']} test predicates, {sense['ambiguous_predicates']} of whose "
            "lemmas had two or more rolesets in training."
        )
    return "\n".join(lines) + "\n"


def probe_chart(results: Dict, title: str) -> str:
    """Error rate (%) per view, one bar per task: lower is better, and small differences stay visible."""
    groups = [
        (
            view_title(name).replace(" (characters)", "").replace(" (biLSTM)", ""),
            [
                (TASK_TITLES[task] + " error", 100 * (1 - scores["views"][name]))
                for task, scores in results["tasks"].items()
            ],
        )
        for name in results["views"]
    ]
    return grouped_bars(title, groups, "test error (%)")
