"""Reproducing the paper's tables and figures: plans of runs, the runner, and the report."""

from tasks.reproduce.commands import Report, Reproduce
