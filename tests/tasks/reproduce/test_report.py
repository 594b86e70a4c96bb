"""The report, rebuilt from serialization directories written here by hand: it shows what they hold."""

import json
import math
import os
import re
import shutil
import subprocess
import sys

import pytest
import torch

from tasks.common import plots
from tasks.reproduce import report as report_module
from tasks.reproduce.document import Figure, Heading, Paragraph, Table, read_markdown_table, write_html, write_markdown
from tasks.reproduce.plan import load_plan
from tasks.reproduce.report import build_report, runs_folder_name
from tasks.reproduce.results import RunResult
from tests.helpers.repository import ROOT

PLAN = {
    "name": "fixture",
    "description": "Hand-written run directories.",
    "experiments": [
        {
            "task": "ner",
            "configs": ["baseline", "elmo"],
            "seeds": [1, 2],
            "data": "invented CoNLL files",
            "overrides": {"trainer.num_epochs": 2},
        },
        {"task": "snli", "configs": ["top_layer"], "seeds": [1]},
        {"task": "sst", "configs": ["baseline", "elmo"], "seeds": [1], "train_fractions": [0.1, 1.0]},
    ],
}
# test F1 of each finished NER run, and dev accuracy of the others
SCORES = {
    "ner-baseline-seed1": 0.90,
    "ner-baseline-seed2": 0.92,
    "ner-elmo-seed1": 0.93,
    "ner-elmo-seed2": 0.95,
    "snli-top_layer-seed1": 0.80,
    "sst-baseline-fraction0.1-seed1": 0.30,
    "sst-baseline-seed1": 0.40,
    "sst-elmo-fraction0.1-seed1": 0.35,
}
# the input mix's raw weights: softmax gives 1/6, 2/6, 3/6
RAW_MIX = [0.0, math.log(2.0), math.log(3.0)]


def _planned(tmp_path, experiments, name):
    """The plan of `experiments` (written to plan.json), and an empty runs folder for it."""
    plan_path = tmp_path / "plan.json"
    plan_path.write_text(json.dumps({"name": name, "experiments": experiments}))
    runs_dir = tmp_path / "runs"
    runs_dir.mkdir()
    return load_plan(str(plan_path)), runs_dir


def _write_run(runs_dir, spec, status, score=None):
    run_dir = runs_dir / spec.name
    run_dir.mkdir(parents=True)
    metric = spec.metric
    info = {
        "name": spec.name,
        "spec": spec.as_json(),
        "status": status,
        "wall_seconds": 125.0,
        "environment": {
            "DEVICES": {"value": "cpu", "default": True, "from_plan": False},
            "ELMO_WEIGHT_FILE": {"value": "/m/w.hdf5", "default": False, "from_plan": True},
        },
        "inputs": {"ELMO_WEIGHT_FILE": {"path": "/m/w.hdf5", "sha256": "ab" * 32}},
        "bilm": {"lstm_dim": 512, "projection_dim": 128, "n_layers": 2, "n_filters": 2048, "n_highway": 2},
        "config_values": {
            "trainer.num_epochs": {"config": 75, "run": 2},
            "validation_data_loader": {"config": None, "run": {"batch_sampler": {"batch_size": 32}}},
        }
        if spec.task == "ner"
        else {},
        "hardware": {"cpu": "Test CPU", "cpu_cores_usable": 2, "gpus": [], "load_average_1min": 1.5},
        "git": {"commit": "0123456789abcdef", "dirty": False},
        "attempts": [{"seconds": 125.0, "omp_num_threads": "1"}],
    }
    if status == "finished":  # a failed run's CPU time is left unmeasured, as a Slurm job's is
        info["cpu_seconds"] = info["attempts"][0]["cpu_seconds"] = 120.0
    if status == "failed":
        info["error"] = {
            "exit_code": 1,
            "summary": "RuntimeError: out of memory",
            "log_tail": ["...", "RuntimeError: out of memory"],
        }
    (run_dir / "run_info.json").write_text(json.dumps(info))
    if status != "finished":
        return
    split = "test" if spec.task == "ner" else "best_validation"
    (run_dir / "metrics.json").write_text(json.dumps({f"{split}_{metric}": score, "best_epoch": 1}))
    (run_dir / "model.tar.gz").write_bytes(b"")
    if spec.task == "snli":  # the subset readers' log lines, for dev and for test
        (run_dir / "out.log").write_text(
            "INFO data_readers.subset - dev.jsonl: evaluating on 100 of 9842 instances (fraction 1, limit 100, seed "
            "13)\n"
            "INFO data_readers.subset - test.jsonl: evaluating on 100 of 9824 instances (fraction 1, limit 100, seed "
            "13)\n"
        )
    for epoch, value in enumerate([score / 2, score]):
        (run_dir / f"metrics_epoch_{epoch}.json").write_text(
            json.dumps({"epoch": epoch, f"validation_{metric}": value})
        )
    weights = {"encoder.weight": torch.zeros(2)}
    if spec.config_name != "baseline":
        prefix = "text_field_embedder.token_embedder_elmo._elmo.scalar_mix_0"
        for layer, value in enumerate(RAW_MIX):
            weights[f"{prefix}.scalar_parameters.{layer}"] = torch.tensor([value])
        weights[f"{prefix}.gamma"] = torch.tensor([1.5 if spec.seed == 1 else 2.5])
    torch.save(weights, run_dir / "best.th")


def test_the_report_shows_what_the_run_directories_hold(tmp_path):
    plan_path = tmp_path / "plan.json"
    plan_path.write_text(json.dumps(PLAN))
    plan = load_plan(str(plan_path))
    runs_dir = tmp_path / "runs"
    runs_dir.mkdir()
    specs = {run.name: run for run in plan.runs}
    for name, score in SCORES.items():
        _write_run(runs_dir, specs[name], "finished", score)
    _write_run(runs_dir, specs["sst-elmo-seed1"], "failed")
    # sst-... all planned; ner-... a config the plan names that does not exist yet
    (runs_dir / "plan.json").write_text(
        json.dumps(
            {
                "name": "fixture",
                "description": PLAN["description"],
                "path": str(plan_path),
                "runs": [run.as_json() for run in plan.runs],
                "config_missing": {},
            }
        )
    )

    markdown, html = build_report(runs_dir, tmp_path / "report")
    text = markdown.read_text()
    # What the runs cost: 9 runs of 125 s each, one thread
    assert "training so far 0.3 hours of wall time, every attempt of every run summed (OMP_NUM_THREADS 1" in text
    finished = len(SCORES)
    assert f"and {finished * 120 / 3600:.1f} hours of CPU time for the {finished} of {finished + 1} runs" in text
    # The first screen: one line per task, the verdict against the seed spread.
    summary = _section(text, "Summary")
    ner = _row(summary, "| NER |")
    assert (
        "| 90.15 → 92.22 ± 0.10 (+2.06) | 91.00 ± 1.41 (n=2) → 94.00 ± 1.41 (n=2) (F1, test) | +3.00 [-3.08, +9.08] "
        "| inconclusive | the 95% interval includes 0: one-sided p = 0.084 (n = 2 a side)" in ner
    )
    assert "| not yet | no finished ELMo run (failed: 1) |" in _row(summary, "| SST-5 |")
    assert "| SQuAD |" not in summary  # no run: no line
    table_1 = _row(_section(text, "Table 1"), "| NER |")
    assert "90.15" in table_1 and "92.22 ± 0.10" in table_1 and "2.06 / 21%" in table_1
    assert "91.00 ± 1.41 (n=2)" in table_1 and "94.00 ± 1.41 (n=2)" in table_1
    # +3.00 absolute; 3 / (100 - 91) = 33.3% of the error; 3 / 91 = 3.3% of the baseline
    assert "+3.00 / +33.3% / +3.3%" in table_1
    assert "| SQuAD |" not in _section(text, "Table 1") and "Not in this plan: SQuAD, SRL, Coref." in text
    sst = _row(_section(text, "Table 1"), "| SST-5 |")
    assert "40.00 (n=1)" in sst and "failed: 1" in sst
    assert "`sst-elmo-seed1` | failed |" in text and "exit 1: RuntimeError: out of memory" in text
    # Table 2: our SNLI top-layer ablation beside the paper's 89.1
    snli = _row(_section(text, "Table 2"), "| SNLI |")
    assert "89.1" in snli and "80.00 (n=1)" in snli
    # Figure 2: the softmax of the stored raw weights, and γ over the two seeds
    assert re.search(r"\| NER elmo \| input \| 2 \| 0\.167, 0\.333, 0\.500 \| 2\.000 ± 0\.707 \|", text)
    assert "| SNLI top_layer | input | 1 | 0.167, 0.333, 0.500 | 1.500 |" in text
    # Figure 1: SST-5 at 10% and all of its training set, with n at every point
    assert "figures/figure1.svg" in text and (tmp_path / "report/figures/figure1.svg").is_file()
    assert "| Task | Config | Fraction | Training instances | Metric | Score (n) |" in text
    assert "| SST-5 | baseline | 0.1 | — | accuracy (dev) | 30.00 (n=1) |" in text
    assert "| SST-5 | elmo | 1 | — | accuracy (dev) | failed: 1 |" in text
    assert "| SST-5 | baseline | 1 | all | accuracy (dev) | 40.00 (n=1) |" in text
    # the setting, once per task, from run_info.json
    settings = _row(_section(text, "How each task's runs differ from the paper"), "| NER |")
    assert "invented CoNLL files (the paper: CoNLL-2003 English)" in settings
    assert "`trainer.num_epochs` = `2` (the config: `75`)" in settings
    assert '`validation_data_loader` = `{"batch_sampler": {"batch_size": 32}}` (the config: not set)' in settings
    assert "none, trained from scratch (the paper: Senna 50-d, fine-tuned)" in settings
    assert "architecture differs: lstm_dim 512 (paper 4096), projection_dim 128 (paper 512)" in settings
    assert (
        text.count("architecture differs") == 3
    )  # once in each task row of ELMo runs (NER, SNLI, SST-5), nowhere else
    assert (
        "evaluated on a seeded part of dev and test, the same in every run: 100 of 9,824, 100 of 9,842 instances "
        "(EVAL_LIMIT)" in text
    )
    assert (
        "| `ner-elmo-seed2` | finished | 95.00 (test) | 2 / 2 | 2 min 05 s | Test CPU, 2 cores (load 1.5 at start); "
        "no GPU; DEVICES=cpu | 0123456789 |" in text
    )
    order = [
        text.index(f"## {name}")
        for name in ("Summary", "Table 1", "Figure 1", "Table 7", "Table 2", "Table 3", "Figure 2")
    ]
    assert order == sorted(order)

    page = html.read_text()
    # figure 1 (SST-5), figure 2 (NER), training curves (NER, SNLI, SST-5 on all of its training set and on 10%)
    assert page.count("<svg") == 6
    assert (tmp_path / "report/figures/curves-sst-fraction0.1.svg").is_file()
    assert "SST-5, 10% of its training set: development accuracy after each epoch" in text
    assert "src=" not in page and "figures/" not in page and "<script" not in page
    assert "91.00 ± 1.41 (n=2)" in page


def _section(text, heading):
    """The Markdown under `## <heading>...` up to the next `## `."""
    return text.split(f"\n## {heading}", 1)[1].split("\n## ", 1)[0]


def _row(text, start):
    return next(line for line in text.splitlines() if line.startswith(start))


def test_the_report_names_its_runs_folder_without_a_machines_path(tmp_path):
    assert runs_folder_name(tmp_path / "elsewhere" / "reproduce_cpu") == "reproduce_cpu"
    assert runs_folder_name(ROOT / "runs" / "reproduce" / "cpu") == "runs/reproduce/cpu"
    (tmp_path / "runs").mkdir()
    markdown, html = build_report(tmp_path / "runs", tmp_path / "report")
    assert str(tmp_path) not in markdown.read_text() and str(tmp_path) not in html.read_text()


def test_the_not_run_count_says_how_many_are_twins_waiting_for_their_original():
    """The runner trains an original once for its twins: the report's count of runs to train must be the runner's."""
    plan = {"runs": [{"name": n} for n in ("a", "a-twin", "b", "c")], "twins": {"a-twin": "a"}}
    b = RunResult("b", ROOT, "finished", {}, {}, None, [], None, [], None, [])
    assert report_module._not_run([b], plan, 4) == "3 not run (a twin of a run not yet trained among them: 2 to train)"
    a, twin = b._replace(name="a"), b._replace(name="a-twin", same_as="a")
    assert report_module._not_run([a, twin, b], plan, 4) == "1 not run"


def test_an_arms_name_reads_as_words_with_its_decimal_points():
    assert report_module._label_words("dropout0_5") == "dropout 0.5"
    assert report_module._label_words("gamma0_1-warm_up") == "gamma 0.1, warm up"
    assert report_module._label_words("all_layers_lambda_0_001") == "all layers lambda 0.001"
    assert report_module._label_words("gamma_1-finetuned") == "γ from 1, as the paper, finetuned"


def test_a_table_the_report_writes_reads_back_cell_for_cell(tmp_path):
    table = Table(["Task", "Score"], [["NER", "1.00 | 2.00"], ["SST-5", "—"]])
    write_markdown(
        [Heading(2, "Table 1: results"), Paragraph("Caption."), table, Heading(2, "Next")], tmp_path / "r.md"
    )
    assert read_markdown_table((tmp_path / "r.md").read_text(), "## Table 1") == (table.headers, table.rows)


def test_each_summary_line_names_the_biLM_of_its_own_runs(tmp_path, monkeypatch):
    """
    A fine-tuned biLM's line says so; the plain ELMo line names the plain biLM, not the fine-tuned
    one; in the training curves the two ELMo kinds have colours of their own.
    """
    experiments = [
        {"task": "ner", "configs": ["elmo"], "seeds": [1, 2], "finetune_bilm": True},
        {"task": "ner", "configs": ["baseline", "elmo"], "seeds": [1, 2]},
    ]
    plan, runs_dir = _planned(tmp_path, experiments, "fixture")
    scores = iter([0.89, 0.91, 0.90, 0.92, 0.91, 0.93])  # fine-tuned, baseline, ELMo: all within the spread
    for run in plan.runs:
        _write_run(runs_dir, run, "finished", next(scores))
    drawn = []
    monkeypatch.setattr(plots, "epoch_curves", lambda panel: drawn.append(panel) or "<svg></svg>")
    summary = _section(build_report(runs_dir, tmp_path / "report")[0].read_text(), "Summary")
    assert _row(summary, "| NER |").endswith(
        "| inconclusive | the 95% interval includes 0: one-sided p = 0.276 (n = 2 a side), with biLM m/w.hdf5 | — |"
    )
    (curves,) = drawn
    colours = {curve.label.rsplit("-seed", 1)[0]: curve.color for curve in curves.curves}
    assert len(set(colours.values())) == 3, colours  # baseline, elmo, elmo-finetuned
    assert _row(summary, "| NER (finetuned) |").endswith(
        "| inconclusive | the 95% interval includes 0: one-sided p = 0.724 (n = 2 a side), with the plan's biLM "
        "fine-tuned on the task's text (§A.1) | — |"
    )


def test_a_plan_comparing_biLMs_has_a_line_per_biLM_each_named_by_its_folder(tmp_path):
    """One baseline, ELMo over two exported biLMs (each a weights.hdf5): no baseline-only line, no task not planned."""
    labelled = [{"task": "ner", "configs": ["elmo"], "seeds": [1], "label": size} for size in ("small", "x_large")]
    plan, runs_dir = _planned(tmp_path, [{"task": "ner", "configs": ["baseline"], "seeds": [1]}] + labelled, "pilot")
    for run, score in zip(plan.runs, (0.90, 0.91, 0.88)):
        _write_run(runs_dir, run, "finished", score)
        info_file, metrics_file = runs_dir / run.name / "run_info.json", runs_dir / run.name / "metrics.json"
        info = json.loads(info_file.read_text())
        info["inputs"]["ELMO_WEIGHT_FILE"]["path"] = f"/work/bilm/export_{run.label}/weights.hdf5"
        if run.label:  # both ELMo runs started beside uncommitted edits, at two commits
            info["git"] = {"commit": f"{run.label:<12}".replace(" ", "0"), "dirty": True}
        info_file.write_text(json.dumps(info))
        metrics_file.write_text(
            json.dumps({**json.loads(metrics_file.read_text()), "best_validation_f1-measure-overall": score + 0.04})
        )
        (runs_dir / run.name / "model.tar.gz").touch()  # archived after its metrics, as `allennlp train` does
    text = build_report(runs_dir, tmp_path / "report")[0].read_text()
    summary = _section(text, "Summary")
    assert "| NER |" not in summary
    small = _row(summary, "| NER (small) |")
    assert (
        "| +1.00 (no interval: n = 1 a side) | inconclusive | n = 1 a side: no spread, so no interval or test" in small
    )
    behind = "| -2.00 (no interval: n = 1 a side) | inconclusive | n = 1 a side: no spread, so no interval or test"
    assert behind in _row(summary, "| NER (x large) |")  # one run against one run is never judged
    table_1 = _section(text, "Table 1")
    assert [line.split(" | ")[0] for line in table_1.splitlines() if line.startswith("| NER")] == [
        "| NER (small)",
        "| NER (x large)",  # the label in words
    ]
    assert "Not in this plan: SQuAD, SNLI, SRL, Coref, SST-5." in table_1
    settings = _section(text, "How each task's runs differ from the paper")
    assert "export_x_large/weights.hdf5 (sha256" in settings
    dirty = "| 2 of 3 runs made from a working tree with uncommitted changes (at small00000, x_large000) |"
    assert _row(settings, "| NER |").endswith(dirty)  # said once for the task, not once per run
    assert "| `ner-elmo-small-seed1` | finished | 91.00 (test), 95.00 (dev) |" in text


def test_figure_1_marks_each_fraction_run_in_per_cent():
    """The x axis is ticked where runs are, read as the paper's Figure 1 reads it: 1%, 10%, 30%, 100%."""
    points = [plots.Point(fraction, 50.0, 1.0, 3) for fraction in (0.01, 0.1, 0.3, 1.0)]
    svg = plots.fraction_panels([plots.Panel("SNLI", [plots.Curve("baseline", points, "#000")], "accuracy")])
    labels = re.findall(r">(\d+%)<", svg)
    assert labels == ["1%", "10%", "30%", "100%"]
    assert "10^{" not in svg and "part of the training set (log scale)" in svg


@pytest.mark.parametrize("tasks, columns, rows", [(3, 3, 1), (4, 2, 2), (5, 3, 2)])
def test_figure_1_puts_at_most_three_panels_a_row(tasks, columns, rows):
    """Four tasks are drawn two by two, not four abreast: the figure keeps a page's width."""
    points = [plots.Point(fraction, 50.0, 1.0, 3) for fraction in (0.01, 1.0)]
    panels = [plots.Panel(f"task {index}", [plots.Curve("baseline", points, "#000")], "F1") for index in range(tasks)]
    svg = plots.fraction_panels(panels)
    width, height = (float(size) for size in re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg).groups())
    assert (round(width / (4.2 * 72)), round(height / (3.4 * 72))) == (columns, rows)  # matplotlib: 72 pt an inch
    assert all(f">task {index}<" in svg for index in range(tasks))


def _figure(name):
    return Figure(name, f'<svg id="{name}"></svg>', f"Caption of {name}.")


def test_a_run_of_figures_flows_side_by_side_in_the_html_and_a_lone_figure_does_not(tmp_path):
    run_of_three = [_figure("first"), _figure("second"), _figure("third")]
    blocks = [_figure("lone"), Table(["a"], [["1"]]), *run_of_three, Paragraph("End.")]
    write_html(blocks, "title", tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text()
    assert page.count('<div class="figures">') == 1 and page.count("</div>") == 1
    run = page.split('<div class="figures">', 1)[1].split("</div>", 1)[0]
    names = ("lone", "first", "second", "third")
    assert [name for name in names if f'id="{name}"' in run] == ["first", "second", "third"]


def test_a_rebuilt_report_leaves_no_figure_of_the_last_build_that_it_no_longer_has(tmp_path):
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "notes.txt").write_text("kept")
    write_markdown([_figure("kept"), _figure("dropped")], tmp_path / "README.md")
    write_markdown([_figure("kept")], tmp_path / "README.md")
    assert sorted(path.name for path in (tmp_path / "figures").iterdir()) == ["kept.svg", "notes.txt"]


def test_a_label_with_no_ablation_runs_has_no_row_in_tables_2_and_3(tmp_path):
    """ELMo without its added regularisation is a Table 1 row; with no ablation planned for it, no row of 'not run'."""
    experiments = [
        {"task": "snli", "configs": ["baseline", "elmo", "top_layer", "input_only"], "seeds": [1]},
        {"task": "snli", "configs": ["elmo"], "seeds": [1], "label": "no_added_regularization"},
    ]
    plan, runs_dir = _planned(tmp_path, experiments, "labels")
    for run in plan.runs:
        _write_run(runs_dir, run, "finished", 0.8)
    text = build_report(runs_dir, tmp_path / "report")[0].read_text()
    assert "| SNLI (no added regularization) |" in _section(text, "Table 1")
    for table in ("Table 2", "Table 3"):
        rows = [line.split(" | ")[0] for line in _section(text, table).splitlines() if line.startswith("| SNLI")]
        assert rows == ["| SNLI"], table


def test_an_ablation_without_an_unlabelled_elmo_run_has_its_row_and_an_unplanned_cell_says_so(tmp_path):
    """As plans/elmo_losses.jsonnet: ELMo runs only under labels, the places unlabelled; one place not planned."""
    experiments = [
        {"task": "snli", "configs": ["baseline", "input_only"], "seeds": [1]},
        {"task": "snli", "configs": ["elmo"], "seeds": [1], "label": "warm_up"},
    ]
    plan, runs_dir = _planned(tmp_path, experiments, "places")
    for run in plan.runs:
        _write_run(runs_dir, run, "finished", 0.8)
    rows = [line for line in _section(build_report(runs_dir, tmp_path / "r")[0].read_text(), "Table 3").splitlines()]
    snli = [row.split(" | ") for row in rows if row.startswith("| SNLI")]
    assert len(snli) == 1 and snli[0][5].startswith("80.00 (n=1)"), rows
    assert snli[0][6:] == ["not planned", "not planned |"]


def test_figure_1_breaks_a_line_where_a_fraction_has_no_finished_run(tmp_path, monkeypatch):
    """ELMo finished at 10% and 100% but not yet at 30%: two points, no line drawn across 30%."""
    plan_path = tmp_path / "plan.json"
    plan_path.write_text(
        json.dumps(
            {
                "name": "curves",
                "experiments": [
                    {"task": "ner", "configs": ["baseline", "elmo"], "seeds": [1], "train_fractions": [0.1, 0.3, 1.0]}
                ],
            }
        )
    )
    plan = load_plan(str(plan_path))
    runs_dir = tmp_path / "runs"
    runs_dir.mkdir()
    for run in plan.runs:
        if run.name != "ner-elmo-fraction0.3-seed1":
            _write_run(runs_dir, run, "finished", 0.5 + run.train_fraction / 4)
    (runs_dir / "plan.json").write_text(
        json.dumps({"name": "curves", "path": str(plan_path), "runs": [run.as_json() for run in plan.runs]})
    )
    drawn = []
    monkeypatch.setattr(plots, "fraction_panels", lambda panels: drawn.extend(panels) or "<svg></svg>")
    text = build_report(runs_dir, tmp_path / "report")[0].read_text()
    (panel,) = drawn
    baseline, elmo = panel.curves
    assert [point.n for point in baseline.points] == [1, 1, 1]
    assert [plots.is_gap(point) for point in elmo.points] == [False, True, False]
    assert "| NER | elmo | 0.3 | — | F1 (test) | not run: 1 | — |" in text
    assert "| NER | baseline | 0.1 | — | F1 (test) | 52.50 (n=1) |  | 2/2 |" in text  # best at the last epoch run


def test_figure_1_draws_a_baseline_lent_to_labelled_elmo_runs_in_their_panels_only(tmp_path, monkeypatch):
    """As plans/elmo_losses.jsonnet's SST-5: the unlabelled baseline, ELMo only under labels; no baseline-only panel."""
    fractions = [0.1, 1.0]
    experiments = [
        {"task": "sst", "configs": ["baseline"], "seeds": [1], "train_fractions": fractions},
        {"task": "sst", "configs": ["elmo"], "seeds": [1], "train_fractions": fractions, "label": "gamma0_1"},
        {"task": "sst", "configs": ["elmo"], "seeds": [1], "train_fractions": fractions, "label": "input_only"},
    ]
    plan, runs_dir = _planned(tmp_path, experiments, "lent")
    for run in plan.runs:
        _write_run(runs_dir, run, "finished", 0.4)
    drawn = []
    monkeypatch.setattr(plots, "fraction_panels", lambda panels: drawn.extend(panels) or "<svg></svg>")
    figure = _section(build_report(runs_dir, tmp_path / "report")[0].read_text(), "Figure 1")
    assert [panel.title for panel in drawn] == ["SST-5 (gamma 0.1)", "SST-5 (input only)"]
    assert all([curve.label for curve in panel.curves] == ["baseline", "elmo"] for panel in drawn)
    assert "| SST-5 | baseline |" not in figure and "| SST-5 (input only) | baseline | 0.1 |" in figure


def test_the_summary_gives_elmos_gain_with_the_least_data_run(tmp_path):
    """The paper's second claim on the first screen: ELMo − baseline at the smallest part, judged by the spread."""
    experiment = {"task": "ner", "configs": ["baseline", "elmo"], "seeds": [1, 2], "train_fractions": [0.01, 0.1, 1]}
    plan, runs_dir = _planned(tmp_path, [experiment], "little")
    scores = {("baseline", 0.01): [0.60, 0.62], ("elmo", 0.01): [0.70, 0.72], ("baseline", 1.0): [0.9, 0.9]}
    for run in plan.runs:
        cell = scores.get((run.config_name, run.train_fraction))
        if cell is not None or run.config_name == "elmo" and run.train_fraction == 1.0:
            _write_run(runs_dir, run, "finished", cell[run.seed - 1] if cell else 0.9)
    summary = _section(build_report(runs_dir, tmp_path / "report")[0].read_text(), "Summary")
    assert _row(summary, "| NER |").endswith(
        "| +10.00 [+3.92, +16.08] at 1%: 61.00 ± 1.41 (n=2) → 71.00 ± 1.41 (n=2), inconclusive (one-sided p = 0.010) |"
    )

    shutil.rmtree(runs_dir / "ner-elmo-fraction0.01-seed2")  # one ELMo seed left: no spread to judge by
    summary = _section(build_report(runs_dir, tmp_path / "report")[0].read_text(), "Summary")
    assert _row(summary, "| NER |").endswith(
        "| +9.00 (no interval: n = 2 baseline, 1 ELMo) at 1%: 61.00 ± 1.41 (n=2) → 70.00 (n=1), inconclusive |"
    )


FIGURE_IN_A_PROCESS = """
import importlib.util
spec = importlib.util.spec_from_file_location("plots", "tasks/common/plots.py")  # without the whole suite
plots = importlib.util.module_from_spec(spec)
spec.loader.exec_module(plots)
panel = plots.Panel(
    "NER", [plots.Curve("baseline", [plots.Point(1, 80.0, 0.5, 2), plots.Point(2, 85.0, 1.0, 2)], "#000")], "F1"
)
print(plots.epoch_curves(panel))
"""


def test_the_same_runs_give_the_same_figure_files(tmp_path):
    """
    A rebuilt report changes only where its runs did: no random element ids, dates or hash-ordered
    output in the SVG, across processes (each with its own hash seed), as on two machines.
    """
    figures = [
        subprocess.run(
            [sys.executable, "-c", FIGURE_IN_A_PROCESS],
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2")
    ]
    assert figures[0].startswith("<svg") and figures[0] == figures[1]


def test_the_summary_names_the_elmo_settings_that_close_the_gap(tmp_path):
    """SNLI's ELMo without the added regularisation, ahead of ELMo as configured by the one-sided test, is named."""
    experiments = [
        {"task": "snli", "configs": ["baseline", "elmo"], "seeds": [1, 2]},
        {"task": "snli", "configs": ["elmo"], "seeds": [1, 2], "label": "no_added_regularization"},
        {"task": "sst", "configs": ["baseline", "elmo"], "seeds": [1, 2]},
        {"task": "sst", "configs": ["elmo"], "seeds": [1, 2], "label": "layer_norm"},
    ]
    plan, runs_dir = _planned(tmp_path, experiments, "fixture")
    scores = {
        "snli-baseline": (0.53, 0.54),
        "snli-elmo": (0.49, 0.50),
        "snli-elmo-no_added_regularization": (0.53, 0.535),
        "sst-baseline": (0.40, 0.41),
        "sst-elmo": (0.40, 0.42),
        "sst-elmo-layer_norm": (0.41, 0.42),  # ahead by 0.50: one-sided p = 0.25
    }
    for run in plan.runs:
        _write_run(runs_dir, run, "finished", scores[run.name.rsplit("-seed", 1)[0]][run.seed - 1])
    summary = _section(build_report(runs_dir, tmp_path / "report")[0].read_text(), "Summary")
    assert _row(summary, "| SNLI |").endswith(
        "| ELMo behind | the 95% interval is below 0: one-sided p = 0.985 (n = 2 a side), with biLM m/w.hdf5; "
        "the 'no added regularization' runs: +3.75 [+0.29, +7.21] over this ELMo, one-sided p = 0.022 "
        "(n = 2 a side) | — |"
    )
    assert "over this ELMo" not in _row(summary, "| SNLI (no added regularization) |")
    assert "over this ELMo" not in _row(summary, "| SST-5 |")


def test_the_papers_own_setting_kept_as_an_ablation_is_a_row_and_a_panel_beside_the_baseline(tmp_path):
    """`gamma_1` (γ from 1, where SNLI's config starts it at 0.1): ELMo runs of their own, set against the baseline."""
    experiments = [
        {"task": "snli", "configs": ["baseline", "elmo", "gamma_1"], "seeds": [1, 2], "train_fractions": [0.1, 1]},
        {"task": "snli", "configs": ["gamma_1"], "seeds": [1, 2], "label": "no_added_regularization"},
    ]
    plan, runs_dir = _planned(tmp_path, experiments, "fixture")
    scores = {"baseline": (0.52, 0.53), "elmo": (0.53, 0.54), "gamma_1": (0.49, 0.50)}
    for run in plan.runs:
        low = 0.1 if run.train_fraction < 1 else 0.0
        _write_run(runs_dir, run, "finished", scores[run.config_name][run.seed - 1] - low)
    text = build_report(runs_dir, tmp_path / "report")[0].read_text()
    table_1 = _section(text, "Table 1: baseline and ELMo")
    assert "| 52.50 ± 0.71 (n=2) | 53.50 ± 0.71 (n=2) |" in _row(table_1, "| SNLI |")
    assert "| 52.50 ± 0.71 (n=2) | 49.50 ± 0.71 (n=2) |" in _row(table_1, "| SNLI (γ from 1, as the paper) |")
    assert _row(table_1, "| SNLI (γ from 1, as the paper, no added regularization) |")
    figure_1 = _section(text, "Figure 1: the metric against the part of the training set used")
    assert "| SNLI (γ from 1, as the paper) | baseline | 0.1 |" in figure_1  # the task's own baseline beside it
    assert "| SNLI (γ from 1, as the paper) | elmo | 0.1 | — | accuracy (dev) | 39.50 ± 0.71 (n=2) |" in figure_1
    assert "no added regularization" not in figure_1  # all of the data only: no curve to draw


def test_the_stock_pipeline_is_set_beside_the_suites_own_rows(tmp_path):
    """allennlp-models' ESIM with and without AllenNLP's ELMo embedder, beside the suite's SNLI rows; not for NER."""
    experiments = [
        {"task": "snli", "configs": ["baseline", "elmo", "stock_esim", "stock_esim_elmo"], "seeds": [1, 2]},
        {"task": "ner", "configs": ["baseline", "elmo"], "seeds": [1]},
    ]
    plan, runs_dir = _planned(tmp_path, experiments, "fixture")
    scores = {
        "baseline": (0.52, 0.53),
        "elmo": (0.53, 0.54),
        "stock_esim": (0.50, 0.51),
        "stock_esim_elmo": (0.55, 0.56),
    }
    for run in plan.runs:
        if run.task == "snli" and run.name != "snli-stock_esim_elmo-seed2":  # one stock ELMo run not there yet
            _write_run(runs_dir, run, "finished", scores[run.config_name][run.seed - 1])
    text = build_report(runs_dir, tmp_path / "report")[0].read_text()
    section = _section(text, "The suite against allennlp-models' own configs")
    assert _row(section, "| SNLI |") == (
        "| SNLI | accuracy (dev) | 52.50 ± 0.71 (n=2) | 53.50 ± 0.71 (n=2) | "
        "+1.00 [-2.04, +4.04]: inconclusive (p = 0.146) |"
    )
    assert _row(section, "| SNLI: allennlp-models' `stock_esim` → `stock_esim_elmo` |") == (
        "| SNLI: allennlp-models' `stock_esim` → `stock_esim_elmo` | accuracy (dev) | 50.50 ± 0.71 (n=2) | "
        "55.00 (n=1) | +4.50 (no interval: n = 2 baseline, 1 ELMo): inconclusive |"
    )
    assert "NER" not in section  # no stock runs of it here


def test_schedule_changes_are_listed_with_their_date_reason_and_runs(tmp_path):
    change = {"date": "2026-11-27", "epochs": [15, 25], "reason": "ELMo best at its last epochs on dev"}
    plan = {
        "runs": [
            {"name": "sst-elmo-seed1", "schedule_changes": [change]},
            {"name": "sst-baseline-seed1", "schedule_changes": [change]},
            {"name": "snli-elmo-seed1", "schedule_changes": []},
        ]
    }

    def run(name, extended):
        attempts = [{"recover": False}] + ([{"recover": True, "extended": extended}] if extended else [])
        return RunResult(name, tmp_path / name, "finished", {}, {"attempts": attempts}, {}, [], None, [], None, [])

    runs = [
        run("sst-elmo-seed1", {"from": 15, "to": 25}),
        run("sst-baseline-seed1", None),  # patience had ended it: nothing to extend
        run("snli-elmo-seed1", {"from": 15, "to": 30}),  # extended with no reason in the plan
    ]
    write_markdown(report_module._schedule_changes(runs, plan), tmp_path / "changes.md")
    text = (tmp_path / "changes.md").read_text()
    assert "| 2026-11-27 | 15 → 25 | `sst-elmo-seed1` | ELMo best at its last epochs on dev |" in text
    assert "Extended with no reason in the plan: `snli-elmo-seed1`." in text
    assert report_module._schedule_changes(runs[1:2], plan) != []  # planned: listed though nothing was extended
    assert report_module._schedule_changes(runs[1:2], {"runs": []}) == []  # nothing planned, nothing extended
