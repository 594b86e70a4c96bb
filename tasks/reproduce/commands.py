"""
`allennlp reproduce PLAN`: runs a plan's experiments and writes their report;
`allennlp report RUNS_DIR`: writes the report of a folder of runs again, from the runs alone.

Subcommands rather than scripts: the suite is used through the `allennlp` command, the plan is
Jsonnet read the way AllenNLP reads configs (environment variables as external variables), and
the runner calls `allennlp train` exactly as a user would, so each run's command can be pasted.
"""

import argparse
import logging
import sys
import tempfile
from pathlib import Path

from allennlp.commands.subcommand import Subcommand

from tasks.common.command import Command
from tasks.environment import PROJECT_ROOT
from tasks.reproduce.plan import load_plan
from tasks.reproduce.provenance import uncommitted_run_inputs
from tasks.reproduce.report import build_report
from tasks.reproduce.restate import configs_at, restate
from tasks.reproduce.runner import Runner
from tasks.reproduce.slurm import settings_from

logger = logging.getLogger(__name__)


@Subcommand.register("reproduce")
class Reproduce(Command):
    description = (
        "Run the experiments of a plan (plans/*.jsonnet) through `allennlp train`, one serialization "
        "directory per run, skipping finished runs and resuming interrupted ones; then write the report."
    )

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("plan", help="the plan file, e.g. plans/cpu.jsonnet (see docs/reproduce.md)")
        parser.add_argument("--runs-dir", help="where the runs go (default: runs/reproduce/<plan name>)")
        parser.add_argument("--report-dir", help="where the report goes (default: <runs dir>/report)")
        parser.add_argument(
            "--only",
            action="append",
            default=[],
            metavar="PATTERN",
            help="run only the runs and fine-tuned biLMs whose name matches (glob or substring); repeatable",
        )
        parser.add_argument(
            "--parallel",
            type=int,
            metavar="N",
            help="run N runs at a time (default 1; with --executor slurm, the jobs in the queue at once, default "
            "all): locally each gets its share of the cores as OMP_NUM_THREADS unless that is set; on a CPU, runs "
            "whose models gain little from a second thread go faster side by side",
        )
        parser.add_argument(
            "--executor",
            choices=("local", "slurm"),
            default="local",
            help="where runs train: subprocesses here (default), or Slurm jobs through submitit (docs/cluster.md)",
        )
        parser.add_argument("--slurm-partition", help="the partition to submit to (default: the plan's, else Slurm's)")
        parser.add_argument("--slurm-account", help="the account to charge (default: the plan's, if any)")
        parser.add_argument(
            "--slurm-time", type=int, metavar="MINUTES", help="every job's time limit (default: the plan's per task)"
        )
        parser.add_argument(
            "--max-resubmits",
            type=int,
            metavar="N",
            help="how often a job that hit its time limit or was preempted is submitted again (default 3)",
        )
        parser.add_argument(
            "--slurm-poll", type=float, default=10.0, metavar="SECONDS", help="how often job states are read (sacct)"
        )
        parser.add_argument("--dry-run", action="store_true", help="say what would run, and how, and stop")
        parser.add_argument(
            "--restate-records",
            metavar="SINCE",
            help="instead of running: give each planned run without a record the record of a run that trained "
            "the same under another name, its config at commit SINCE reading as the planned run's does now "
            "(after a setting was adopted and the old one kept as an ablation), or a copy of a reference plan's record "
            "of exactly that training under its own name; with --dry-run, say which",
        )
        parser.add_argument(
            "--allow-uncommitted",
            action="store_true",
            help="train although code, configs or plans differ from the commit checked out; each attempt then "
            "records the patch (run_info.json: git.uncommitted)",
        )

    def run(self, args: argparse.Namespace) -> None:
        if not args.dry_run:
            check_committed(PROJECT_ROOT, args.allow_uncommitted)
        plan = load_plan(args.plan)
        runs_dir = Path(args.runs_dir) if args.runs_dir else PROJECT_ROOT / "runs" / "reproduce" / plan.name
        slurm = None
        if args.executor == "slurm":
            slurm = settings_from(
                plan.slurm,
                f"plan {args.plan}",
                partition=args.slurm_partition,
                account=args.slurm_account,
                time_min=args.slurm_time,
                max_resubmits=args.max_resubmits,
                poll_seconds=args.slurm_poll,
            )
        parallel = args.parallel or (max(1, len(plan.runs) + len(plan.bilms)) if slurm else 1)
        runner = Runner(plan, runs_dir, args.only, parallel, slurm)
        if args.restate_records:
            restate_records(runner, args.restate_records, args.dry_run)
            return
        if args.dry_run:
            runner.dry_run()
            return
        try:
            status = runner.run()
        except KeyboardInterrupt:
            logger.warning("Stopped. The same command resumes where the plan stopped.")
            status = 130
        finally:
            markdown, html = build_report(runs_dir, Path(args.report_dir) if args.report_dir else runs_dir / "report")
            logger.info("Report: %s and %s", markdown, html)
        sys.exit(status)


def restate_records(runner: Runner, since: str, dry_run: bool) -> None:
    """Restates the records that changed configs since `since` left under old names (tasks.reproduce.restate)."""
    with configs_at(since) as (commit, configs_then):
        found = runner.restatements(configs_then)
    for restatement in found:
        verb = ("would be" if dry_run else "is") + (" copied as" if restatement.into else "")
        where = restatement.record.source if dry_run else restate(restatement, commit, runner.runs_dir)
        print(f"{restatement.record.name} {verb} {restatement.run.name}: {where}")
    if not found:
        print(f"No record to restate: every record whose config reads otherwise than at {since} is of no planned run.")


def check_committed(root: Path, allowed: bool) -> None:
    """Stops a plan from training on code, configs or plans that no commit holds, unless `allowed`."""
    changed = uncommitted_run_inputs(root)
    if not changed:
        return
    listed = ", ".join(changed[:10]) + (f" and {len(changed) - 10} more" if len(changed) > 10 else "")
    if not allowed:
        sys.exit(
            f"{len(changed)} file(s) that runs read differ from the commit checked out ({listed}): a record "
            "would not say what trained. Commit them first, or pass --allow-uncommitted to train anyway, each "
            "attempt then recording the patch in its run_info.json (git.uncommitted)."
        )
    logger.warning("Training on uncommitted changes (%s): each attempt records their patch.", listed)


@Subcommand.register("report")
class Report(Command):
    description = (
        "Write the reproduction report (README.md with figures/*.svg, and one self-contained "
        "report.html) of a folder of runs made by `allennlp reproduce`, from its run directories and its "
        "plan's records; or, with --plan alone, from the plan's records alone (as the committed reports are "
        "built, so that a test can rebuild them)."
    )

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("runs_dir", nargs="?", help="the runs folder, e.g. runs/reproduce/cpu")
        parser.add_argument("--plan", help="instead of a runs folder: the plan whose records to report on")
        parser.add_argument("--output", help="where to write the report (default: <runs dir>/report)")

    def run(self, args: argparse.Namespace) -> None:
        if bool(args.runs_dir) == bool(args.plan):
            sys.exit("give a runs folder, or --plan for a report from the plan's records alone")
        if args.plan:
            if not args.output:
                sys.exit("--plan needs --output: where to write the report")
            markdown, html = build_records_report(args.plan, Path(args.output))
        else:
            runs_dir = Path(args.runs_dir)
            if not runs_dir.is_dir():
                sys.exit(f"{runs_dir}: no such folder of runs")
            markdown, html = build_report(runs_dir, Path(args.output) if args.output else runs_dir / "report")
        print(f"Wrote {markdown} and {html}")


def build_records_report(plan_file: str, output: Path):
    """The report of a plan from its committed records alone: no run directory of this machine enters it."""
    plan = load_plan(plan_file)
    with tempfile.TemporaryDirectory() as nowhere:  # the runner's view of the plan, with no runs of its own
        record = Runner(plan, Path(nowhere) / plan.name).plan_record()
    return build_report(None, output, record)
