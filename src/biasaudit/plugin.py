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
from typing import TYPE_CHECKING, Any

from biasaudit.benchmark_spec import BenchmarkSpec, DataSource
from biasaudit.discovery import (
    ENTRY_POINT_GROUP,
    DiscoveryProblem,
    declared_sources,
    discover,
    discovery_problems,
    read_resource,
    spec_sources,
)
from biasaudit.errors import UnknownNameError

if TYPE_CHECKING:
    from biasaudit.analysis import Analysis
    from biasaudit.contract import Benchmark


__all__ = [
    "ENTRY_POINT_GROUP",
    "BenchmarkSpec",
    "DataSource",
    "DiscoveryProblem",
    "analysis",
    "benchmark_class",
    "declared_sources",
    "discover",
    "discovery_problems",
    "get_spec",
    "names",
    "read_resource",
    "spec_sources",
]


def import_object(path: str) -> Any:
    module_name, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


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
        for problem in discovery_problems():
            if problem.name == name:
                raise UnknownNameError(f"benchmark '{name}': {problem.line()}")
        raise UnknownNameError(
            f"unknown benchmark '{name}'{_close(name, known)} (known: {', '.join(known)})"
        )
    return specs[name]


def benchmark_class(name: str) -> type[Benchmark]:
    """The benchmark class the spec names: "module:Class", or "package:task.yaml" (a
    declarative multiple-choice task written in YAML, `biasaudit.declarative_yaml`)."""
    ref = get_spec(name).benchmark
    if ref.endswith((".yaml", ".yml")):
        from biasaudit.declarative_yaml import yaml_benchmark

        return yaml_benchmark(ref)
    cls: type[Benchmark] = import_object(ref)
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
