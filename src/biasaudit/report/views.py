"""A benchmark's own report sections, named by its spec's ``report_view``.

See `biasaudit.report.sections` for the contract. A benchmark without a view gets the
generic sections only. A view that raises is reported in the page as a failed section (with
the exception), so one broken view does not cost the whole report.
"""

from __future__ import annotations

from collections.abc import Sequence

from biasaudit import importing, plugin
from biasaudit.report import html
from biasaudit.report.sections import Section
from biasaudit.results.schema import BenchmarkResult, SampleRecord


def view_path(benchmark: str) -> str | None:
    """The "module:function" of `benchmark`'s view, or None (unknown benchmark, no view)."""
    spec = plugin.discover().get(benchmark)
    return spec.report_view if spec is not None else None


def view_sections(result: BenchmarkResult, records: Sequence[SampleRecord]) -> list[Section]:
    path = view_path(result.benchmark)
    if path is None:
        return []
    try:
        return list(importing.import_object(path)(result, list(records)))
    except Exception as exc:  # shown in the report rather than aborting it
        message = f"The {result.benchmark} view ({path}) failed: {type(exc).__name__}: {exc}"
        return [Section(f"{result.benchmark}: view failed", html.note(message))]
