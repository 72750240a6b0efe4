"""Find a benchmark's own report sections: ``biasaudit.benchmarks.<name>.report_view``.

See `biasaudit.report.sections` for the contract. A benchmark without such a module gets the
generic sections only. A view that raises is reported in the page as a failed section (with
the exception), so one broken view does not cost the whole report.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Sequence

from biasaudit.report import html
from biasaudit.report.sections import Section
from biasaudit.results.schema import BenchmarkResult, SampleRecord


def view_module_name(benchmark: str) -> str | None:
    """The module that would hold `benchmark`'s view, or None if it cannot exist."""
    if not benchmark.isidentifier():
        return None
    name = f"biasaudit.benchmarks.{benchmark}.report_view"
    try:
        found = importlib.util.find_spec(name)
    except ModuleNotFoundError:  # the benchmark package itself does not exist
        return None
    return name if found is not None else None


def view_sections(result: BenchmarkResult, records: Sequence[SampleRecord]) -> list[Section]:
    name = view_module_name(result.benchmark)
    if name is None:
        return []
    module = importlib.import_module(name)
    try:
        return list(module.sections(result, list(records)))
    except Exception as exc:  # shown in the report rather than aborting it
        message = f"The {result.benchmark} view ({name}) failed: {type(exc).__name__}: {exc}"
        return [Section(f"{result.benchmark}: view failed", html.note(message))]
