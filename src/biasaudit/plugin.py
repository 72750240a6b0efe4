"""Benchmark plug-ins: self-describing packages, discovered rather than listed.

A benchmark is one package under `biasaudit.benchmarks` (or any installed package that
declares an entry point in the ``biasaudit.benchmarks`` group) whose ``__init__`` defines
``SPEC = BenchmarkSpec(...)``. Everything else (the benchmark class, its report view, its
analyses) is named by ``"module:attribute"`` strings and imported only when used, so listing
benchmarks never imports torch or llama.cpp. The core names no benchmark.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.metadata
import pkgutil
from functools import cache
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from biasaudit.errors import UnknownNameError
from biasaudit.suites import SuiteDecl

if TYPE_CHECKING:
    from biasaudit.analysis import Analysis
    from biasaudit.benchmarks.base import Benchmark

#: Entry-point group through which other packages add benchmarks.
ENTRY_POINT_GROUP = "biasaudit.benchmarks"


class BenchmarkSpec(BaseModel):
    """What the core needs to know about a benchmark without importing it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    title: str
    citation: str = ""
    #: "module:Class" of the `Benchmark` subclass.
    benchmark: str
    #: "module:function" returning report sections (see `biasaudit.report.sections`).
    report_view: str | None = None
    #: analysis name -> "module:attribute" of an `Analysis`.
    analyses: dict[str, str] = Field(default_factory=dict)
    #: Stratification keys and the demo/quick/standard subsets an audit runs (suites.py);
    #: None: only the `full` suite runs it.
    suites: SuiteDecl | None = None


def import_object(path: str) -> Any:
    module_name, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


def _spec_of(obj: Any, origin: str) -> BenchmarkSpec:
    spec = getattr(obj, "SPEC", obj)
    if not isinstance(spec, BenchmarkSpec):
        raise TypeError(f"{origin} does not provide a BenchmarkSpec (SPEC)")
    return spec


@cache
def discover() -> dict[str, BenchmarkSpec]:
    """All benchmark specs: the packages under `biasaudit.benchmarks`, then entry points."""
    import biasaudit.benchmarks as package

    found: dict[str, tuple[BenchmarkSpec, str]] = {}

    def add(spec: BenchmarkSpec, origin: str) -> None:
        if spec.name in found:
            raise ValueError(
                f"benchmark '{spec.name}' is declared twice ({found[spec.name][1]}, {origin})"
            )
        found[spec.name] = (spec, origin)

    for info in pkgutil.iter_modules(package.__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        if hasattr(module, "SPEC"):
            add(_spec_of(module, module.__name__), module.__name__)
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        add(_spec_of(entry.load(), f"entry point {entry.name}"), f"entry point {entry.value}")
    return {name: found[name][0] for name in sorted(found)}


def _close(name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.5)
    return f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""


def names() -> list[str]:
    return list(discover())


def get_spec(name: str) -> BenchmarkSpec:
    """The spec of benchmark `name`; an unknown name is a one-line error with suggestions."""
    specs = discover()
    if name not in specs:
        known = list(specs)
        raise UnknownNameError(
            f"unknown benchmark '{name}'{_close(name, known)} (known: {', '.join(known)})"
        )
    return specs[name]


def benchmark_class(name: str) -> type[Benchmark]:
    cls: type[Benchmark] = import_object(get_spec(name).benchmark)
    return cls


def analysis(benchmark: str, name: str) -> Analysis:
    """One analysis of a benchmark, with did-you-mean for unknown names."""
    from biasaudit.analysis import Analysis

    spec = get_spec(benchmark)
    if name not in spec.analyses:
        known = sorted(spec.analyses)
        raise UnknownNameError(
            f"benchmark '{benchmark}' has no analysis '{name}'{_close(name, known)} "
            f"(analyses: {', '.join(known) or 'none'})"
        )
    obj = import_object(spec.analyses[name])
    if not isinstance(obj, Analysis):
        raise TypeError(f"{spec.analyses[name]} is not an Analysis")
    return obj
