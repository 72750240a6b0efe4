"""Reports of runs: a self-contained HTML page, comparisons between runs, CSV/Parquet export.

Benchmarks contribute their own report sections through ``biasaudit.benchmarks.<name>.report_view``
(see `biasaudit.report.sections`).
"""

from biasaudit.report.compare import Difference, compare_runs
from biasaudit.report.export import export_run
from biasaudit.report.page import build_html, write_report
from biasaudit.report.runs import LoadedRun, load_run, load_runs
from biasaudit.report.sections import Section

__all__ = [
    "Difference",
    "LoadedRun",
    "Section",
    "build_html",
    "compare_runs",
    "export_run",
    "load_run",
    "load_runs",
    "write_report",
]
