"""The report tests' fixtures (defined in report_runs.py)."""

from report_runs import run_a, run_b

__all__ = ["run_a", "run_b"]
