"""
The reproduction report of a folder of runs. First a summary, one line per task: the paper's gain,
ours with its seed spread, and the verdict; then Table 1, Figure 1, Table 7, Tables 2 and 3,
Figure 2, how each task's setting differs from the paper (stated once, in one table), the training
curves and every run with its time, machine and commit. Every number comes from a run directory, a
run's record (the plan's `records` folder, for runs finished on another machine) or the paper's
tables in tasks/reproduce/paper.py; the report can be rebuilt at any time. Ours are mean ± standard
deviation over seeds with n; ELMo against its baseline is a difference with Welch's 95% interval
and a one-sided test (tasks/reproduce/comparison.py), never one run against one run.
"""

import collections
import json
import re
import statistics
from pathlib import Path
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

from tasks.common import plots
from tasks.environment import repository_relative
from tasks.reproduce import paper
from tasks.reproduce.comparison import ALPHA, MIN_SEEDS, REPRODUCED, Comparison, compare
from tasks.reproduce.document import Block, Figure, Heading, Paragraph, Table, write_html, write_markdown
from tasks.reproduce.paper import BASELINE, ELMO, TASKS
from tasks.reproduce.records import is_bilm_result_of, is_result_of, read_bilm_records, read_run_records
from tasks.reproduce.results import BilmResult, RunResult, read_bilms, read_plan_record, read_runs

GroupKey = Tuple[str, str, str, float]  # task, config name, label, training fraction


class Group(NamedTuple):
    """The runs of one task, config, label and training fraction: the seeds of one cell."""

    finished: List[RunResult]
    unfinished: List[RunResult]  # failed, interrupted or incomplete
    not_run: int  # planned, no directory
    config_missing: bool

    def scores(self, split: str) -> List[float]:
        values = [run.score(split) for run in self.finished]
        return [v * TASKS[run.task].scale for v, run in zip(values, self.finished) if v is not None]

    def split(self) -> str:
        """'test' when every finished run has a test score, else 'validation'."""
        return "test" if self.finished and all(run.score("test") is not None for run in self.finished) else "validation"


def build_report(runs_dir: Optional[Path], output_dir: Path, plan: Optional[Dict] = None) -> Tuple[Path, Path]:
    """
    Writes README.md (with figures/*.svg) and report.html in `output_dir`; returns their paths. From
    the run directories in `runs_dir` and the records of the plan they record (plan.json); or, with
    `plan` (a plan record, `Runner.plan_record`) and no `runs_dir`, from the plan's records alone. The
    same runs and records give the same files, byte for byte.
    """
    plan = plan or (read_plan_record(runs_dir) if runs_dir else None)
    records = [Path(plan["records"])] if plan and plan.get("records") else []
    records += [Path(folder) for folder in (plan or {}).get("reference_records", [])]
    here = (read_runs(runs_dir), read_bilms(runs_dir)) if runs_dir else ([], [])
    runs, bilms = _with_records(*here, records, plan)
    runs = _with_twins(runs, plan)
    groups = _groups(runs, plan)
    title = f"Reproducing Peters et al. 2018 (ELMo): {plan['name'] if plan else runs_dir.name}"
    blocks: List[Block] = [Heading(1, title), Paragraph(_preamble(runs_dir, records, runs, plan))]
    blocks += _summary(groups)
    blocks += _table_1(groups)
    blocks += _stock_cross_check(groups)
    blocks += _figure_1(groups)
    blocks += _table_7(bilms)
    blocks += _ablation_table(groups, 2, paper.TABLE_2_COLUMNS, paper.TABLE_2)
    blocks += _ablation_table(groups, 3, paper.TABLE_3_COLUMNS, paper.TABLE_3)
    blocks += _figure_2(groups)
    blocks += _setting_section(runs)
    blocks += _training_curves(runs)
    blocks += _schedule_changes(runs, plan)
    blocks += _runs_section(runs, plan)
    output_dir.mkdir(parents=True, exist_ok=True)
    markdown, html = output_dir / "README.md", output_dir / "report.html"
    write_markdown(blocks, markdown)
    write_html(blocks, title, html)
    return markdown, html


def _with_records(
    runs: List[RunResult], bilms: List[BilmResult], records: List[Path], plan: Optional[Dict]
) -> Tuple[List[RunResult], List[BilmResult]]:
    """
    The run directories and fine-tuned biLMs here, with the records of the planned ones (each the
    result of the run or biLM as the plan has it now; the plan's own records first, then its
    reference records) in place of those not here or not finished here: a biLM whose weights a new
    machine builds again reports its recorded build meanwhile, not an unfinished one. The biLMs
    sorted by name.
    """
    folders = [folder for folder in records if folder.is_dir()]
    if not folders:
        return runs, bilms
    planned = {spec["name"]: spec for spec in plan["runs"]}
    planned_bilms = {spec["name"]: spec for spec in plan.get("bilms", [])}
    recorded_runs: Dict[str, RunResult] = {}
    recorded_bilms: Dict[str, BilmResult] = {}
    for folder in folders:
        for record in read_run_records(folder):
            if record.name in planned and is_result_of(record, planned[record.name]):
                recorded_runs.setdefault(record.name, record)
        for record in read_bilm_records(folder):
            if record.name in planned_bilms and is_bilm_result_of(record, planned_bilms[record.name]):
                recorded_bilms.setdefault(record.name, record)
    bilms = _in_place_of_unfinished(bilms, recorded_bilms)
    return _in_place_of_unfinished(runs, recorded_runs), sorted(bilms, key=lambda bilm: bilm.name)


def _in_place_of_unfinished(here: list, recorded: Dict[str, Any]) -> list:
    """The runs or biLMs `here`, each unfinished one that has a record replaced by it, then the records of the rest."""
    kept = [result for result in here if result.status == "finished" or result.name not in recorded]
    names = {result.name for result in kept}
    return kept + [record for name, record in recorded.items() if name not in names]


def _with_twins(runs: List[RunResult], plan: Optional[Dict]) -> List[RunResult]:
    """Each planned twin without a directory of its own, as the run whose training it is (plan.json's `twins`)."""
    by_name = {run.name: run for run in runs}
    specs = {spec["name"]: spec for spec in (plan or {}).get("runs", [])}
    twins = [
        by_name[original]._replace(name=twin, spec=specs[twin], same_as=original)
        for twin, original in (plan or {}).get("twins", {}).items()
        if twin not in by_name and original in by_name and twin in specs
    ]
    return sorted(runs + twins, key=lambda run: run.name)


def _groups(runs: Sequence[RunResult], plan: Optional[Dict]) -> Dict[GroupKey, Group]:
    members: Dict[GroupKey, List[RunResult]] = collections.defaultdict(list)
    for run in runs:
        members[_key(run.spec)].append(run)
    planned: Dict[GroupKey, List[str]] = collections.defaultdict(list)
    missing_configs = set((plan or {}).get("config_missing", {}))
    for spec in (plan or {}).get("runs", []):
        planned[_key(spec)].append(spec["name"])
    groups = {}
    for key in set(members) | set(planned):
        present = {run.name for run in members[key]}
        absent = [name for name in planned[key] if name not in present]
        groups[key] = Group(
            finished=[run for run in members[key] if run.status == "finished"],
            unfinished=[run for run in members[key] if run.status != "finished"],
            not_run=len(absent),
            config_missing=any(name in missing_configs for name in absent),
        )
    return groups


def _key(spec: Dict) -> GroupKey:
    """
    A fine-tuned biLM's runs (§A.1) form groups of their own, labelled 'finetuned'; so do an ELMo
    variant's (paper.ELMO_VARIANTS: the paper's setting where the config departs from it), as ELMo
    runs labelled with the variant's name.
    """
    config = spec["config_name"]
    variant = config if config in paper.ELMO_VARIANTS else ""
    label = "-".join(
        part for part in (variant, spec.get("label", ""), "finetuned" if spec.get("finetuned_bilm") else "") if part
    )
    return spec["task"], ELMO if variant else config, label, float(spec["train_fraction"])


def _preamble(runs_dir: Optional[Path], records: List[Path], runs: Sequence[RunResult], plan: Optional[Dict]) -> str:
    counts = collections.Counter(run.status for run in runs)
    planned = len(plan["runs"]) if plan else len(runs)
    description = f" {plan['description']}" if plan and plan.get("description") else ""
    recorded = sum(1 for run in runs if _from_record(run))
    folders = " and ".join(f"`{runs_folder_name(folder)}`" for folder in records)
    sources = [f"the run directories in `{runs_folder_name(runs_dir)}`"] if runs_dir else []
    sources += [f"the records of {recorded} runs in {folders}"] if recorded or not runs_dir else []
    ended = max((run.info.get("ended") or "" for run in runs), default="")
    latest = f" The latest run ended {ended[:16].replace('T', ' ')} UTC." if ended else ""
    return (
        f"Built by `allennlp report` from {' and '.join(sources)}"
        f"{' (plan `' + plan['path'] + '`)' if plan else ''}.{latest}{description} "
        f"Runs: {planned} planned, {counts['finished']} finished, {counts['failed']} failed, "
        f"{counts['interrupted'] + counts['incomplete']} interrupted or incomplete, "
        f"{_not_run(runs, plan, planned)}{_time_spent(runs)}. Paper numbers: {paper.SOURCE}."
    )


def _not_run(runs: Sequence[RunResult], plan: Optional[Dict], planned: int) -> str:
    """'5 not run', and how many are twins waiting for their original: the runner counts only those it trains."""
    present = {run.name for run in runs}
    waiting = sum(1 for twin in (plan or {}).get("twins", {}) if twin not in present)
    count = max(0, planned - len(runs))
    if not waiting:
        return f"{count} not run"
    twins = "a twin of a run" if waiting == 1 else f"{waiting} twins of runs"
    return f"{count} not run ({twins} not yet trained among them: {count - waiting} to train)"


def _time_spent(runs: Sequence[RunResult]) -> str:
    """The wall time (and CPU time, where measured) of every attempt of every run, summed: what the plan cost so far."""
    runs = [run for run in runs if not run.same_as]  # a twin's time is its original's
    seconds = sum(run.info.get("wall_seconds") or 0.0 for run in runs)
    if not seconds:
        return ""
    threads = sorted(
        {
            attempt.get("omp_num_threads") or "torch's default"
            for run in runs
            for attempt in run.info.get("attempts", [])
            if "omp_num_threads" in attempt
        }
    )
    recorded = f"OMP_NUM_THREADS {' or '.join(threads)} where recorded; " if threads else ""
    measured = [run.info["cpu_seconds"] for run in runs if run.info.get("cpu_seconds") is not None]
    cpu = (
        f", and {sum(measured) / 3600:.1f} hours of CPU time for the {len(measured)} of {len(runs)} runs "
        "that measured it (user and system, all threads)"
        if measured
        else ""
    )
    return (
        f"; training so far {seconds / 3600:.1f} hours of wall time, every attempt of every run summed "
        f"({recorded}runs side by side share the machine's cores){cpu}"
    )


def runs_folder_name(runs_dir: Path) -> str:
    """
    How the report names the runs folder: relative to the repository when inside it, else by its own
    name (no machine's path).
    """
    return repository_relative(runs_dir) or runs_dir.resolve().name


# ---------------------------------------------------------------- the summary


def _summary(groups: Dict[GroupKey, Group]) -> List[Block]:
    """One line per task (and biLM label): the paper's gain, ours with its seed spread, reproduced or not, and why."""
    blocks: List[Block] = [Heading(2, "Summary")]
    headers = [
        "Task",
        "Paper: baseline → ELMo",
        "Ours: baseline → ELMo",
        "Ours: ELMo − baseline [95% interval]",
        "Verdict",
        "Main reason",
        "Ours with little data (Figure 1)",
    ]
    rows = []
    for task, spec in TASKS.items():
        published = paper.TABLE_1[task]
        for label in _labels(groups, task):
            baseline, elmo = _main_groups(groups, task, label)
            if baseline is None and elmo is None:
                continue
            split = next((group.split() for group in (elmo, baseline) if group and group.finished), "test")
            verdict, reason = _verdict(baseline, elmo, split)
            reason += _variants_ahead(groups, task, label, split)
            rows.append(
                [
                    _row_title(spec, label),
                    f"{published.baseline.value} → {_paper_score(published.elmo)} (+{published.absolute})",
                    f"{_mean_cell(baseline, split)} → {_mean_cell(elmo, split)} ({spec.metric}, {_split_name(split)})",
                    _difference_cell(baseline, elmo, split),
                    verdict,
                    reason,
                    _little_data_cell(groups, task, label, split),
                ]
            )
    if not rows:
        return blocks + [Paragraph("No run in this folder yet.")]
    caption = (
        "Ours: mean ± standard deviation over seeds (n seeds). ELMo − baseline: the difference of the means "
        "with its 95% confidence interval (Welch: unequal variances). Reproduced: a one-sided Welch test of "
        f"'ELMo is better' passes at 5% with at least {MIN_SEEDS} seeds a side; ELMo behind: the whole interval "
        "is below 0; inconclusive: anything else (the interval includes 0, too few seeds, or one seed on a side, "
        "which gives no interval). Little data: the same at the smallest part of the training set where both "
        "have finished runs (the paper's Figure 1: ELMo's gain is largest with little data). Main reason: where "
        "ELMo with other settings (a line of its own below the task's) is ahead of ELMo as configured by the same "
        "test, the task's line names it. How each task's setting differs from the paper's: the table of that "
        "name below."
    )
    return blocks + [Paragraph(caption), Table(headers, rows)]


def _row_title(spec: paper.Task, label: str) -> str:
    """A task's name, and the label of its runs in words: 'SNLI (no added regularization)'."""
    return spec.title + (f" ({_label_words(label)})" if label else "")


def _label_words(label: str) -> str:
    """'gamma_1-finetuned' as 'γ from 1, as the paper, finetuned'; 'dropout0_5' as 'dropout 0.5'."""
    return ", ".join(paper.ELMO_VARIANTS.get(part, _name_words(part)) for part in label.split("-"))


def _name_words(name: str) -> str:
    """A config or arm name in words: '_' between digits is a decimal point (as in lambda_0_001), else a space."""
    return re.sub(r"(?<=[a-z])(?=\d)", " ", re.sub(r"(?<=\d)_(?=\d)", ".", name)).replace("_", " ")


def _main_groups(groups: Dict[GroupKey, Group], task: str, label: str) -> Tuple[Optional[Group], Optional[Group]]:
    """A task's baseline (the unlabelled one when this label has none) and ELMo on the whole training set."""
    baseline = groups.get((task, BASELINE, label, 1.0)) or groups.get((task, BASELINE, "", 1.0))
    return baseline, groups.get((task, ELMO, label, 1.0))


def _verdict(baseline: Optional[Group], elmo: Optional[Group], split: str) -> Tuple[str, str]:
    """The task's verdict (tasks/reproduce/comparison.py) and its reason, with the biLM where ELMo is not ahead."""
    comparison = _comparison(baseline, elmo, split)
    if comparison is None:
        missing = baseline if not (baseline and baseline.scores(split)) else elmo
        states = collections.Counter(run.status for run in missing.unfinished) if missing else {}
        why = ", ".join(f"{status}: {count}" for status, count in sorted(states.items())) or "not run"
        return "not yet", f"no finished {'baseline' if missing is baseline else 'ELMo'} run ({why})"
    reason = comparison.reason()
    if comparison.verdict != REPRODUCED:
        reason += f", with {next((_bilm_brief(run) for run in elmo.finished), '?')}"
    return comparison.verdict, reason


def _comparison(baseline: Optional[Group], elmo: Optional[Group], split: str) -> Optional[Comparison]:
    base, ours = (group.scores(split) if group else [] for group in (baseline, elmo))
    return compare(base, ours) if base and ours else None


def _variants_ahead(groups: Dict[GroupKey, Group], task: str, label: str, split: str) -> str:
    """
    The unlabelled line's ELMo against ELMo with other settings over the same baseline (the plan's
    diagnostics: SNLI without the added regularisation, NER over a fine-tuned biLM): each that a
    one-sided Welch test at 5% finds ahead of this ELMo is named, with its difference and interval,
    as where the gap of this line comes from.
    """
    elmo = groups.get((task, ELMO, label, 1.0))
    ours = elmo.scores(split) if elmo else []
    if label or not ours:
        return ""
    said = []
    for other in _labels(groups, task):
        variant = groups.get((task, ELMO, other, 1.0))
        theirs = variant.scores(split) if other and variant else []
        if not theirs or (task, BASELINE, other, 1.0) in groups:  # a baseline of its own: another comparison
            continue
        comparison = compare(ours, theirs)
        if comparison.p_value is not None and comparison.p_value < ALPHA:
            said.append(
                f"the '{_label_words(other)}' runs: {comparison.interval()} over this ELMo, "
                f"one-sided p = {comparison.p_value:.3f} ({comparison.seeds()})"
            )
    return "".join(f"; {line}" for line in said)


def _little_data_cell(groups: Dict[GroupKey, Group], task: str, label: str, split: str) -> str:
    """ELMo − baseline at the smallest training fraction below 1 where both have finished runs, with its verdict."""
    for fraction in sorted({key[3] for key in groups if key[0] == task and key[3] < 1}):
        baseline = groups.get((task, BASELINE, label, fraction)) or groups.get((task, BASELINE, "", fraction))
        elmo = groups.get((task, ELMO, label, fraction))
        comparison = _comparison(baseline, elmo, split)
        if comparison is None:
            continue
        return (
            f"{comparison.interval()} at {fraction * 100:g}%: {_mean_cell(baseline, split)} → "
            f"{_mean_cell(elmo, split)}, {comparison.verdict}"
            + (f" (one-sided p = {comparison.p_value:.3f})" if comparison.p_value is not None else "")
        )
    return "—"


def _judged(baseline: Optional[Group], elmo: Optional[Group], split: str) -> str:
    """'+1.17 [-0.65, +2.99]: inconclusive (p = 0.072)': ELMo − baseline, its interval and its verdict."""
    comparison = _comparison(baseline, elmo, split)
    if comparison is None:
        return "—"
    test = f" (p = {comparison.p_value:.3f})" if comparison.p_value is not None else ""
    return f"{comparison.interval()}: {comparison.verdict}{test}"


def _mean_cell(group: Optional[Group], split: str) -> str:
    scores = group.scores(split) if group else []
    mean, std = _mean_std(scores)
    if mean is None:
        return "—"
    return f"{mean:.2f}" + (f" ± {std:.2f}" if std is not None else "") + f" (n={len(scores)})"


def _difference_cell(baseline: Optional[Group], elmo: Optional[Group], split: str) -> str:
    """ELMo − baseline with its 95% interval (Welch)."""
    comparison = _comparison(baseline, elmo, split)
    return comparison.interval() if comparison else "—"


# ---------------------------------------------------------------- the setting, once per task

SETTING_COLUMNS = [
    "Data",
    "Parts trained and evaluated on",
    "Word vectors",
    "biLM",
    "Schedule and sizes (overrides)",
    "Where trained",
    "Other",
]


def _setting_section(runs: Sequence[RunResult]) -> List[Block]:
    blocks: List[Block] = [Heading(2, "How each task's runs differ from the paper")]
    tasks = [task for task in TASKS if any(run.task == task for run in runs)]
    if not tasks:
        return blocks + [Paragraph("No run directory yet.")]
    rows = []
    for task in tasks:
        settings = task_settings([run for run in runs if run.task == task])
        rows.append([TASKS[task].title] + ["; ".join(settings[column]) or "as the paper" for column in SETTING_COLUMNS])
    caption = "Read from each run's run_info.json and training log; a cell lists every value the task's runs used."
    return blocks + [Paragraph(caption), Table(["Task"] + SETTING_COLUMNS, rows)]


def task_settings(runs: Sequence[RunResult]) -> Dict[str, List[str]]:
    """Plain-words differences from the paper for one task's runs, by column of the settings table."""
    task = TASKS[runs[0].task]
    settings: Dict[str, List[str]] = {column: [] for column in SETTING_COLUMNS}
    settings["Data"] = _unique(_data_note(run, task) for run in runs) + _unique(_shared_file_notes(run) for run in runs)
    sizes = sorted(
        {run.training_size for run in runs if run.training_size and run.training_size[0] < run.training_size[1]}
    )
    if sizes:
        kept = ", ".join(f"{k:,}" for k in sorted({k for k, _ in sizes}))
        of = " or ".join(f"{n:,}" for n in sorted({n for _, n in sizes}))
        settings["Parts trained and evaluated on"].append(
            f"trained on {kept} of {of} instances (TRAIN_FRACTION / TRAIN_LIMIT)"
        )
    evaluated = sorted({size for run in runs for size in run.evaluation_sizes if size[0] < size[1]})
    if evaluated:
        parts = ", ".join(f"{kept:,} of {of:,}" for kept, of in evaluated)
        settings["Parts trained and evaluated on"].append(
            f"evaluated on a seeded part of dev and test, the same in every run: {parts} instances (EVAL_LIMIT)"
        )
    settings["Word vectors"] = _unique(_vectors_note(run, task) for run in runs)
    settings["biLM"] = _unique(_bilm_notes(run) for run in runs if run.spec["config_name"] != BASELINE)
    settings["Schedule and sizes (overrides)"] = _unique(_override_notes(run) for run in runs)
    settings["Where trained"] = _unique(_devices_note(run) for run in runs)
    dirty = [run for run in runs if run.info.get("git", {}).get("dirty")]
    if dirty:
        commits = ", ".join(_unique(run.info["git"]["commit"][:10] for run in dirty))
        settings["Other"].append(
            f"{len(dirty)} of {len(runs)} runs made from a working tree with uncommitted changes (at {commits})"
        )
    return settings


def _unique(notes) -> List[str]:
    seen: List[str] = []
    for note in notes:
        for line in [note] if isinstance(note, str) else note or []:
            if line and line not in seen:
                seen.append(line)
    return seen


def _data_note(run: RunResult, task: paper.Task) -> str:
    prefix = run.task.upper() + "_"
    inputs = {name: entry for name, entry in run.info.get("environment", {}).items() if name.startswith(prefix)}
    data_inputs = {name: entry for name, entry in inputs.items() if name.endswith("_DATA")}
    if data_inputs and all(entry["default"] for entry in data_inputs.values()):
        folder = Path(next(iter(data_inputs.values()))["value"]).parent
        return f"the suite's bundled invented sample ({folder.name}/ in bundled/data), not {task.paper_data}"
    if run.spec.get("data"):
        return f"{run.spec['data']} (the paper: {task.paper_data})"
    files = ", ".join(Path(entry["value"]).name for entry in data_inputs.values() if entry["value"])
    return f"{files or 'as the config defaults'} (the paper: {task.paper_data})"


def _shared_file_notes(run: RunResult) -> List[str]:
    """Splits read from one file (same sha256): e.g. a test set that also chose the best epoch."""
    prefix = run.task.upper() + "_"
    inputs = run.info.get("inputs", {})
    splits = [
        (split, inputs.get(f"{prefix}{split.upper()}_DATA", {}).get("sha256")) for split in ("train", "dev", "test")
    ]
    notes = []
    for index, (first, first_hash) in enumerate(splits):
        for second, second_hash in splits[index + 1 :]:
            if first_hash and first_hash == second_hash:
                consequence = (
                    "the best epoch is chosen on the data it is scored on, so the score is optimistic"
                    if (first, second) == ("dev", "test")
                    else "the model is scored on data it was trained on"
                )
                notes.append(f"the {first} and {second} data are the same file: {consequence}")
    return notes


def _vectors_note(run: RunResult, task: paper.Task) -> str:
    vectors = run.info.get("environment", {}).get(f"{run.task.upper()}_WORD_VECTORS", {}).get("value", "")
    used = Path(vectors).name if vectors else "none, trained from scratch"
    return f"{used} (the paper: {task.paper_vectors})"


def _override_notes(run: RunResult) -> List[str]:
    notes = []
    for key, values in sorted(run.info.get("config_values", {}).items()):
        if key in ("random_seed", "numpy_seed", "pytorch_seed") or not isinstance(values, dict):
            continue
        if values.get("config") != values.get("run"):
            config = "not set" if values.get("config") is None else f"`{json.dumps(values['config'])}`"
            notes.append(f"`{key}` = `{json.dumps(values.get('run'))}` (the config: {config})")
    return notes


def _bilm_notes(run: RunResult) -> List[str]:
    """Which biLM an ELMo run used, then how its architecture differs from the paper's (if it does)."""
    source = _bilm_source(run)[1]
    architecture = run.info.get("bilm")
    if source in paper.KNOWN_BILMS.values() or not architecture or architecture == paper.PAPER_BILM:
        return [source]
    sizes = ", ".join(
        f"{key} {architecture.get(key)} (paper {value})"
        for key, value in paper.PAPER_BILM.items()
        if architecture.get(key) != value
    )
    return [source, f"architecture differs: {sizes}"]


def _bilm_brief(run: RunResult) -> str:
    """The biLM of an ELMo run in a few words, for the summary (the settings table has the rest)."""
    return _bilm_source(run)[0]


def _bilm_source(run: RunResult) -> Tuple[str, str]:
    """Where an ELMo run's biLM came from: in a few words, and in full."""
    weights = run.info.get("inputs", {}).get("ELMO_WEIGHT_FILE", {})
    if run.spec.get("finetuned_bilm"):
        return (
            "the plan's biLM fine-tuned on the task's text (§A.1)",
            "'finetuned' runs: the plan's biLM after one epoch on the task's training text (§A.1, Table 7)",
        )
    if run.info.get("environment", {}).get("ELMO_WEIGHT_FILE", {}).get("default"):
        described = run.info.get("bilm_description") or "see bundled/bilm/MODEL_CARD.md"
        return "the suite's small bundled biLM", f"the bundled biLM ({described}), not the paper's"
    if weights.get("sha256") in paper.KNOWN_BILMS:
        return paper.KNOWN_BILMS[weights["sha256"]], paper.KNOWN_BILMS[weights["sha256"]]
    path = Path(weights.get("path", "?"))
    name = f"{path.parent.name}/{path.name}" if path.parent.name else path.name  # exports all hold weights.hdf5
    return f"biLM {name}", f"{name} (sha256 {str(weights.get('sha256'))[:12]}…)"


def _devices_note(run: RunResult) -> str:
    devices = run.info.get("environment", {}).get("DEVICES", {}).get("value", "cpu") or "cpu"
    names = [name.strip() for name in devices.split(",")]
    where = "on the CPU" if names[0] == "cpu" else f"on GPU {devices}"
    processes = f", {len(names)} processes (AllenNLP's distributed trainer)" if len(names) > 1 else ""
    return f"trained {where}{processes} (DEVICES={devices})"


# ---------------------------------------------------------------- tables


def _mean_std(values: Sequence[float]) -> Tuple[Optional[float], Optional[float]]:
    if not values:
        return None, None
    return statistics.fmean(values), (statistics.stdev(values) if len(values) > 1 else None)


def _score_cell(group: Optional[Group], split: str) -> str:
    """'54.31 ± 0.42 (n=3)', or why there is no number ('not run', 'failed: 2', 'config missing')."""
    if group is None:
        return "not run"
    mean, std = _mean_std(group.scores(split))
    states = collections.Counter(run.status for run in group.unfinished)
    others = ", ".join(f"{status}: {count}" for status, count in sorted(states.items()))
    if group.not_run:
        others += (", " if others else "") + ("config missing" if group.config_missing else f"not run: {group.not_run}")
    if mean is None:
        return others or "not run"
    cell = f"{mean:.2f}" + (f" ± {std:.2f}" if std is not None else "") + f" (n={len(group.scores(split))})"
    return cell + (f"; {others}" if others else "")


def _split_name(split: str) -> str:
    return "test" if split == "test" else "dev"


def _paper_score(score: paper.Score) -> str:
    return score.value + (f" ± {score.std}" if score.std is not None else "")


def _labels(groups: Dict[GroupKey, Group], task: str) -> List[str]:
    """
    The labels of a task's Table 1 rows: each with ELMo runs on the whole training set (planned or
    run), their baseline being the label's own or the unlabelled one; a label with only a baseline
    is a row of its own only when no label has ELMo. Empty for a task the folder does not have.
    """
    labels = sorted({label for (t, _, label, _) in groups if t == task})
    with_elmo = [label for label in labels if (task, ELMO, label, 1.0) in groups]
    return with_elmo or labels


def _table_1(groups: Dict[GroupKey, Group]) -> List[Block]:
    headers = [
        "Task",
        "Metric",
        "Paper: baseline",
        "Paper: ELMo",
        "Paper: increase (abs. / rel.)",
        "Ours: baseline",
        "Ours: ELMo",
        "Ours: increase (abs. / rel. error reduction / rel. to baseline)",
        "Ours: ELMo − baseline [95% interval]: verdict",
    ]
    rows = []
    for task, spec in TASKS.items():
        published = paper.TABLE_1[task]
        for label in _labels(groups, task):
            baseline, elmo = _main_groups(groups, task, label)
            split = next((group.split() for group in (elmo, baseline) if group and group.finished), "test")
            rows.append(
                [
                    _row_title(spec, label),
                    f"{spec.metric} ({_split_name(split)})",
                    _paper_score(published.baseline),
                    _paper_score(published.elmo),
                    f"{published.absolute} / {published.relative}%",
                    _score_cell(baseline, split),
                    _score_cell(elmo, split),
                    _increase(baseline, elmo, split),
                    _judged(baseline, elmo, split),
                ]
            )
    caption = (
        "Paper: test set, Table 1; its relative increase is the reduction of the baseline's error "
        "(100 − score). Ours: the test set where the run had one, else the development set "
        "(best epoch), as the Metric column says; the main runs of each task, on the whole of the "
        "plan's training set for it (fraction 1). The verdict: Welch's 95% interval of ELMo − baseline and a "
        f"one-sided test at 5%, reproduced with at least {MIN_SEEDS} seeds a side (the summary says more). The "
        "data and biLM behind each row: the settings table."
    )
    missing = [spec.title for task, spec in TASKS.items() if not _labels(groups, task)]
    if missing:
        caption += f" Not in this plan: {', '.join(missing)}."
    heading = "Table 1: baseline and ELMo" + ("" if missing else ", all six tasks")
    return [Heading(2, heading), Paragraph(caption), Table(headers, rows)]


def _stock_cross_check(groups: Dict[GroupKey, Group]) -> List[Block]:
    """
    The suite's baseline and ELMo beside allennlp-models' own configs of the task with and without
    AllenNLP's stock ELMo embedder (paper.STOCK_PAIRS), on the same data, vectors and biLM: where the
    stock pipeline gains and the suite's does not, the fault is the suite's. Only for tasks with stock runs.
    """
    rows = []
    for task, (stock_baseline, stock_elmo) in paper.STOCK_PAIRS.items():
        stock = groups.get((task, stock_baseline, "", 1.0)), groups.get((task, stock_elmo, "", 1.0))
        if stock == (None, None):
            continue
        spec = TASKS[task]
        lines = [(_row_title(spec, label), *_main_groups(groups, task, label)) for label in _labels(groups, task)]
        lines.append((f"{spec.title}: allennlp-models' `{stock_baseline}` → `{stock_elmo}`", *stock))
        split = next((g.split() for _, *pair in lines for g in pair if g and g.finished), "test")
        for title, baseline, elmo in lines:
            rows.append(
                [title, f"{spec.metric} ({_split_name(split)})", _score_cell(baseline, split), _score_cell(elmo, split)]
                + [_judged(baseline, elmo, split)]
            )
    if not rows:
        return []
    caption = (
        "The suite's rows of Table 1 beside allennlp-models' own configs of the same task (configs/stock/: "
        "its model, reader and AllenNLP's elmo_token_embedder, changed only for the data, word vectors, biLM "
        "and devices), the same data, vectors and biLM: if the stock pipeline gains where the suite's does "
        "not, the fault is the suite's."
    )
    headers = ["Pipeline", "Metric", "Baseline", "ELMo", "ELMo − baseline [95% interval]: verdict"]
    return [Heading(2, "The suite against allennlp-models' own configs"), Paragraph(caption), Table(headers, rows)]


def _increase(baseline: Optional[Group], elmo: Optional[Group], split: str) -> str:
    base_mean, _ = _mean_std(baseline.scores(split)) if baseline else (None, None)
    elmo_mean, _ = _mean_std(elmo.scores(split)) if elmo else (None, None)
    if base_mean is None or elmo_mean is None:
        return "—"
    absolute = elmo_mean - base_mean
    error_reduction = f"{paper.relative_error_reduction(base_mean, elmo_mean):+.1f}%" if base_mean < 100 else "—"
    relative = f"{100.0 * absolute / base_mean:+.1f}%" if base_mean > 0 else "—"
    return f"{absolute:+.2f} / {error_reduction} / {relative}"


def _ablation_table(
    groups: Dict[GroupKey, Group], number: int, columns: Dict[str, str], published: Dict[str, Dict[str, float]]
) -> List[Block]:
    ablations = [name for name in columns if name != BASELINE]
    rows_planned = {(task, label) for (task, config, label, f) in groups if config in ablations and f == 1.0}
    tasks = [task for task in TASKS if any(t == task for t, _ in rows_planned)]
    what = "which biLM layers and λ" if number == 2 else "where ELMo enters the model"
    blocks: List[Block] = [Heading(2, f"Table {number}: {what} (development set)")]
    if not tasks:
        return blocks + [Paragraph(f"No run of the Table {number} ablations ({', '.join(ablations)}) in this folder.")]
    headers = (
        ["Task", "Metric"]
        + [f"Paper: {title}" for title in columns.values()]
        + [f"Ours: {title}" for title in columns.values()]
    )
    rows = []
    for task in tasks:
        # A label of Table 1 alone (ELMo with other settings, say) has no row here: none of its cells is planned.
        for label in sorted(label for t, label in rows_planned if t == task):
            numbers = published.get(task, {})
            rows.append(
                [_row_title(TASKS[task], label), f"{TASKS[task].metric} (dev)"]
                + [f"{numbers[name]:.1f}" if name in numbers else "—" for name in columns]
                + [_ablation_cell(groups, task, name, label) for name in columns]
            )
    caption = (
        f"Paper: Table {number}, development set (— where the paper has no number for the task). "
        "Ours: the best epoch's development score of configs/ablations/<task>_<ablation>.jsonnet runs; an "
        "ablation whose config is the task's ELMo config (the paper's setting) is not trained twice, and its "
        "cell is that run's (the Runs table says which). Under each ablation's score: its difference from the "
        "baseline with Welch's 95% interval and the verdict of the summary's rule."
    )
    return blocks + [Paragraph(caption), Table(headers, rows)]


def _ablation_cell(groups: Dict[GroupKey, Group], task: str, name: str, label: str) -> str:
    """An ablation's development score and, but for the baseline's own cell, how it compares with the baseline."""
    baseline = groups.get((task, BASELINE, label, 1.0)) or groups.get((task, BASELINE, "", 1.0))
    group = baseline if name == BASELINE else groups.get((task, name, label, 1.0))
    if group is None:
        return "not planned"
    cell = _score_cell(group, "validation")
    if name == BASELINE:
        return cell
    judged = _judged(baseline, group, "validation")
    return cell if judged == "—" else f"{cell}; {judged}"


def _table_7(bilms: Sequence[BilmResult]) -> List[Block]:
    blocks: List[Block] = [Heading(2, "Table 7: the biLM's held-out perplexity before and after fine-tuning (§A.1)")]
    if not bilms:
        return blocks + [Paragraph("No fine-tuned biLM in this folder (a plan asks for them with `finetune_bilm`).")]
    headers = [
        "Task",
        "Training text (lines, tokens)",
        "Held-out text (tokens)",
        "Paper: before",
        "Paper: after",
        "Ours: before (fwd / bwd)",
        "Ours: after (fwd / bwd)",
        "Epochs, time",
    ]
    rows = []
    for bilm in bilms:
        published = paper.TABLE_7.get(bilm.task)
        paper_cells = [f"{value:.1f}" for value in published] if published else ["—", "—"]
        if bilm.perplexity is None:
            rows.append([TASKS[bilm.task].title, "—", "—"] + paper_cells + [bilm.status, "—", "—"])
            continue
        result = bilm.perplexity
        text = result["text"]

        def figure(stage: str) -> str:
            values = result[stage]
            return (
                f"{values['perplexity']:.1f} ({values['forward_perplexity']:.1f} / {values['backward_perplexity']:.1f})"
            )

        rows.append(
            [
                TASKS[bilm.task].title,
                f"{Path(text['train']['data']).name}: {text['train']['lines']:,}, {text['train']['tokens']:,}",
                f"{Path(text['heldout']['data']).name}: {text['heldout']['tokens']:,}",
                *paper_cells,
                figure("before"),
                figure("after"),
                f"{result['epochs']}, {_minutes(result['seconds'])}" + _attempts_note(bilm.info),
            ]
        )
    caption = (
        "Paper: Table 7, development set perplexity, before and after one epoch of fine-tuning on the task's "
        "training set (— where it gives no figure). Ours: `allennlp finetune-bilm` on the plan's data for the task; "
        "each distinct text once; perplexity over the held-out (dev) text with a softmax over the words seen at "
        "least 3 times in the training text (others count as unknown), so not comparable to the paper's in "
        "size. A weight file holds no softmax, so 'before' is the biLM as given with a softmax fitted for one "
        "epoch, its own weights frozen; 'after' follows one epoch of everything."
    )
    return blocks + [Paragraph(caption), Table(headers, rows)]


def _attempts_note(info: Dict[str, Any]) -> str:
    """
    A build resumed across sessions: its time is its last attempt's alone. A biLM built again where
    the weights of an earlier build were lost: the earlier builds' perplexity after fine-tuning.
    """
    attempts, earlier = len(info.get("attempts", [])), info.get("earlier_builds", [])
    notes = [f"the last of {attempts} attempts"] if attempts > 1 else []
    if earlier:
        after = ", ".join(f"{build['after']['perplexity']:.1f}" for build in earlier)
        notes.append(f"built {len(earlier) + 1} times, the earlier weights lost (perplexity after: {after})")
    return f" ({'; '.join(notes)})" if notes else ""


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.0f} min" if seconds >= 90 else f"{seconds:.0f} s"


# ---------------------------------------------------------------- figures


def _figure_1(groups: Dict[GroupKey, Group]) -> List[Block]:
    """The metric against the training fraction: one panel per task run at two fractions or more, and its table."""
    blocks: List[Block] = [Heading(2, "Figure 1: the metric against the part of the training set used")]
    curves: Dict[Tuple[str, str], Dict[Tuple[str, float], Group]] = collections.defaultdict(dict)
    for (task, config, label, fraction), group in groups.items():
        if config in (BASELINE, ELMO):
            curves[(task, label)][(config, fraction)] = group
    lent = set()  # tasks whose unlabelled baseline stands beside a labelled ELMo
    for (task, label), cells in curves.items():
        # an ELMo variant run at two fractions or more, with no baseline of its own: the task's beside it
        if label and len({fraction for _, fraction in cells}) > 1 and not any(c == BASELINE for c, _ in cells):
            cells.update({key: group for key, group in curves.get((task, ""), {}).items() if key[0] == BASELINE})
            lent.add(task)
    panels, rows = [], []
    for (task, label), cells in sorted(curves.items(), key=lambda item: (list(TASKS).index(item[0][0]), item[0][1])):
        if len({fraction for _, fraction in cells}) < 2:
            continue
        if not label and task in lent and all(config == BASELINE for config, _ in cells):
            continue  # that baseline alone, a panel and rows again of what the labelled panels show
        spec = TASKS[task]
        split = next((group.split() for group in cells.values() if group.finished), "test")
        panel_curves = []
        for config in (BASELINE, ELMO):
            points = []
            for (name, fraction), group in sorted(cells.items(), key=lambda item: item[0][1]):
                if name != config:
                    continue
                scores = group.scores(split)
                mean, std = _mean_std(scores)
                sizes = sorted({run.training_size[0] for run in group.finished if run.training_size})
                rows.append(
                    [
                        _row_title(spec, label),
                        config,
                        f"{fraction:g}",
                        ", ".join(f"{size:,}" for size in sizes)
                        or ("all" if group.finished and fraction == 1 else "—"),
                        f"{spec.metric} ({_split_name(split)})",
                        _score_cell(group, split),
                        _judged(cells.get((BASELINE, fraction)), group, split) if config == ELMO else "",
                        ", ".join(_best_epoch(run) for run in group.finished) or "—",
                    ]
                )
                # a fraction with no finished run yet breaks the line rather than being drawn across
                points.append(
                    plots.Point(fraction, mean, std or 0.0, len(scores)) if mean is not None else plots.gap(fraction)
                )
            if any(not plots.is_gap(point) for point in points):
                panel_curves.append(plots.Curve(config, points, plots.color_of(config, 0)))
        if panel_curves:  # a task none of whose runs has finished yet is in the table only
            panels.append(plots.Panel(_row_title(spec, label), panel_curves, f"{spec.metric} ({_split_name(split)})"))
    if not rows:
        return blocks + [Paragraph("No task was run at more than one training fraction.")]
    headers = [
        "Task",
        "Config",
        "Fraction",
        "Training instances",
        "Metric",
        "Score (n)",
        "ELMo − baseline [95% interval]: verdict",
        "Best epoch / epochs run",
    ]
    table = Table(headers, rows)
    if not panels:
        return blocks + [Paragraph("No run of these curves has finished yet."), table]
    caption = (
        "Figure 1: mean over seeds, the band ± one standard deviation, n seeds at each point; the fraction is "
        "of the plan's training set for the task (the paper's Figure 1: SNLI and SRL, 0.1% to 100%). A line joins "
        "neighbouring fractions only where both have finished runs. ELMo − baseline at each fraction is judged "
        "as in the summary (Welch's 95% interval, a one-sided test at 5%). A best epoch near the last one run "
        "says the run was still learning when its epochs ran out."
    )
    return blocks + [Figure("figure1", plots.fraction_panels(panels), caption), table]


def _best_epoch(run: RunResult, between: str = "/") -> str:
    """The run's best epoch (counted from 1) and how many it ran, e.g. '58/60'."""
    best = (run.metrics or {}).get("best_epoch")
    if not run.epochs:
        return "—"
    return f"{best + 1 if isinstance(best, int) else '—'}{between}{len(run.epochs)}"


def _figure_2(groups: Dict[GroupKey, Group]) -> List[Block]:
    blocks: List[Block] = [Heading(2, "Figure 2: the learned weights of the biLM layers")]
    rows = []
    for (task, config, label, fraction), group in sorted(groups.items()):
        mixes_by_place: Dict[str, List] = collections.defaultdict(list)
        for run in group.finished:
            if run.same_as:  # a twin's weights are its original's, shown in the original's row
                continue
            for mix in run.mixes:
                mixes_by_place[mix.place].append(mix)
        if not mixes_by_place:
            continue
        labelled = f" ({_label_words(label)})" if label else ""
        fraction_note = f" fraction {fraction:g}" if fraction != 1 else ""
        name = f"{TASKS[task].title} {config}{labelled}{fraction_note}"
        for place, mixes in sorted(mixes_by_place.items()):
            layers = len(mixes[0].weights)
            means = [statistics.fmean(mix.weights[layer] for mix in mixes) for layer in range(layers)]
            gamma_mean, gamma_std = _mean_std([mix.gamma for mix in mixes if mix.gamma is not None])
            rows.append(
                [
                    name,
                    place,
                    str(len(mixes)),
                    ", ".join(f"{weight:.3f}" for weight in means)
                    + ("" if mixes[0].trained else " (fixed: top layer only)"),
                    "—" if gamma_mean is None else f"{gamma_mean:.3f}" + (f" ± {gamma_std:.3f}" if gamma_std else ""),
                ]
            )
        if config == ELMO and fraction == 1.0:
            layers = len(next(iter(mixes_by_place.values()))[0].weights)
            places = {
                place: (
                    [statistics.fmean(m.weights[layer] for m in mixes) for layer in range(layers)],
                    [
                        statistics.stdev(m.weights[layer] for m in mixes) if len(mixes) > 1 else 0.0
                        for layer in range(layers)
                    ],
                )
                for place, mixes in mixes_by_place.items()
            }
            svg = plots.layer_weights(f"{name}: layer weights", places, [_layer_name(layer) for layer in range(layers)])
            caption = (
                f"{name}: the softmax-normalised scalar-mix weights of the biLM layers, mean ± std over "
                f"{len(group.finished)} seed(s), for each place ELMo enters (read from best.th)."
            )
            blocks.append(Figure(f"figure2-{task}{'-' + label if label else ''}", svg, caption))
    if not rows:
        return blocks + [Paragraph("No finished run with ELMo in this folder.")]
    caption = (
        "Every finished run with ELMo: the mean softmax-normalised weight of each layer "
        "(layer 0: the character CNN's token layer; then the biLSTM layers) and γ, over seeds."
    )
    return blocks + [Paragraph(caption), Table(["Runs", "Place", "Seeds", "Layer weights (0, 1, 2, …)", "γ"], rows)]


def _layer_name(layer: int) -> str:
    return "0 (tokens)" if layer == 0 else f"{layer} (biLSTM)"


def _training_curves(runs: Sequence[RunResult]) -> List[Block]:
    """Each run's dev metric after every epoch: a figure per task and training fraction (the whole set first)."""
    blocks: List[Block] = [Heading(2, "Training curves")]
    for task, spec in TASKS.items():
        task_runs = [run for run in runs if run.task == task and run.epochs and not run.same_as]
        kinds = sorted({_curve_kind(run) for run in task_runs}, key=lambda kind: (kind not in (BASELINE, ELMO), kind))
        fractions = sorted({float(run.spec["train_fraction"]) for run in task_runs}, key=lambda f: (f != 1.0, f))
        for fraction in fractions:
            curves = [_epoch_curve(run, kinds) for run in task_runs if float(run.spec["train_fraction"]) == fraction]
            curves = [curve for curve in curves if curve.points]
            if not curves:
                continue
            part = "all of its training set" if fraction == 1.0 else f"{fraction:.0%} of its training set"
            title = f"{spec.title}, {part}: development {spec.metric} after each epoch"
            name = f"curves-{task}" + ("" if fraction == 1.0 else f"-fraction{fraction:g}")
            blocks.append(
                Figure(
                    name,
                    plots.epoch_curves(plots.Panel(title, curves, f"{spec.metric} (dev)")),
                    f"{title}, one line per run (metrics_epoch_*.json); baseline runs dashed.",
                )
            )
    if len(blocks) == 1:
        blocks.append(Paragraph("No run has finished an epoch yet."))
    return blocks


def _curve_kind(run: RunResult) -> str:
    """What a run's line is coloured by: its config, and its label if any (ELMo over a fine-tuned biLM, say)."""
    _, config, label, _ = _key(run.spec)
    return f"{config}-{label}" if label else config


def _epoch_curve(run: RunResult, kinds: List[str]) -> plots.Curve:
    spec, config, kind = TASKS[run.task], run.spec["config_name"], _curve_kind(run)
    key = f"validation_{run.spec['metric']}"
    points = [
        plots.Point(epoch.get("epoch", index) + 1, epoch[key] * spec.scale, 0.0, 1)
        for index, epoch in enumerate(run.epochs)
        if isinstance(epoch.get(key), (int, float))
    ]
    label = run.name[len(run.task) + 1 :]
    return plots.Curve(label, points, plots.color_of(kind, kinds.index(kind)), dashed=config == BASELINE)


# ---------------------------------------------------------------- runs


def _schedule_changes(runs: Sequence[RunResult], plan: Optional[Dict]) -> List[Block]:
    """Each time the plan gave finished runs more epochs: when, why (the plan's words) and which runs went on."""
    extended: Dict[Tuple[int, int], List[str]] = collections.defaultdict(list)
    for run in runs:
        for attempt in run.info.get("attempts", []):
            if attempt.get("extended") and not run.same_as:
                extended[(attempt["extended"]["from"], attempt["extended"]["to"])].append(run.name)
    planned = _planned_changes(plan)
    rows = []
    for spec_runs, change in planned:
        before, after = change["epochs"]
        names = [name for name in extended.get((before, after), []) if name in spec_runs]
        rows.append(
            [
                change["date"],
                f"{before} → {after}",
                ", ".join(f"`{name}`" for name in sorted(names)) or "none (patience had ended them, or none had run)",
                change["reason"],
            ]
        )
    unexplained = sorted(
        name
        for (before, after), names in extended.items()
        for name in names
        if not any(name in spec_runs and change["epochs"] == [before, after] for spec_runs, change in planned)
    )
    if not rows and not unexplained:
        return []
    blocks: List[Block] = [
        Heading(2, "Schedule changes"),
        Paragraph(
            "Runs that had finished and were given more epochs (resumed from their last checkpoint), with the date "
            "and the reason their plan gives. A reason that followed a look at test scores says so."
        ),
    ]
    if rows:
        blocks.append(Table(["Date", "Epochs", "Runs extended", "Reason (the plan's)"], rows))
    if unexplained:
        blocks.append(Paragraph(f"Extended with no reason in the plan: {', '.join(f'`{n}`' for n in unexplained)}."))
    return blocks


def _planned_changes(plan: Optional[Dict]) -> List[Tuple[set, Dict[str, Any]]]:
    """(the names of the runs it covers, the change) for each distinct schedule change of the plan."""
    changes: Dict[str, Tuple[set, Dict[str, Any]]] = {}
    for spec in (plan or {}).get("runs", []):
        for change in spec.get("schedule_changes", []):
            key = json.dumps(change, sort_keys=True)
            changes.setdefault(key, (set(), change))[0].add(spec["name"])
    return sorted(changes.values(), key=lambda item: (item[1]["date"], item[1]["epochs"]))


def _runs_section(runs: Sequence[RunResult], plan: Optional[Dict]) -> List[Block]:
    headers = ["Run", "Status", "Score", "Best epoch / epochs", "Wall time", "Hardware", "Commit", "Error"]
    rows = []
    for run in runs:
        scale = TASKS[run.task].scale
        scores = [
            f"{run.score(split) * scale:.2f} ({_split_name(split)})"
            for split in ("test", "validation")
            if run.score(split) is not None
        ]
        epochs = _best_epoch(run, " / ")
        git = run.info.get("git", {})
        commit = (git.get("commit") or "?")[:10] + (" (dirty)" if git.get("dirty") else "")
        error = run.info.get("error", {})
        rows.append(
            [
                f"`{run.name}`",
                run.status
                + (" (record)" if _from_record(run) else "")
                + (f" (trains as `{run.same_as}`: its results)" if run.same_as else ""),
                ", ".join(scores) or "—",
                epochs,
                "—" if run.same_as else _wall_time(run.info.get("wall_seconds")),
                _hardware(run.info),
                commit,
                _failure(error) if error and run.status == "failed" else "",
            ]
        )
    blocks: List[Block] = [
        Heading(2, "Runs"),
        Paragraph(
            "Each run's directory holds its config.json, metrics, weights, console.log and run_info.json "
            "(the command, environment variables, input files with sha256, machine, commit, attempts)."
            + (
                " A run marked (record) finished where its directory is not: it is read from its record in the "
                "plan's records folder (the first paragraph names it), which keeps run_info.json, the metrics, "
                "each epoch's scores and the learned layer weights."
                if any(_from_record(run) for run in runs)
                else ""
            )
        ),
    ]
    if rows:
        blocks.append(Table(headers, rows))
    present = {run.name for run in runs}
    missing = (plan or {}).get("config_missing", {})
    not_run = [spec["name"] for spec in (plan or {}).get("runs", []) if spec["name"] not in present]
    if not_run:
        blocks.append(
            Paragraph(
                "Planned, not run: "
                + ", ".join(
                    f"`{name}`" + (f" (config missing: {missing[name]})" if name in missing else "") for name in not_run
                )
            )
        )
    return blocks


def _from_record(run: RunResult) -> bool:
    return run.source.suffix == ".json"


def _failure(error: Dict[str, Any]) -> str:
    """A failed run's exit code and error; a run refused before it started has no exit code."""
    code = error.get("exit_code")
    return error.get("summary", "") if code is None else f"exit {code}: {error.get('summary')}"


def _wall_time(seconds: Optional[float]) -> str:
    if not seconds:
        return "—"
    minutes, secs = divmod(int(round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min {secs:02d} s"


def _hardware(info: Dict) -> str:
    machine = info.get("hardware", {})
    gpus = ", ".join(machine.get("gpus", [])) or "no GPU"
    devices = info.get("environment", {}).get("DEVICES", {}).get("value", "")
    load = machine.get("load_average_1min")
    return (
        f"{machine.get('cpu', '?')}, {machine.get('cpu_cores_usable', '?')} cores"
        + (f" (load {load} at start)" if load is not None else "")
        + f"; {gpus}; DEVICES={devices or 'cpu'}"
    )
