"""Benchmark plug-ins: self-describing packages, discovered rather than listed.

A benchmark is one package under `biasaudit.benchmarks` (or any installed package that
declares an entry point in the ``biasaudit.benchmarks`` group) whose ``__init__`` defines
``SPEC = BenchmarkSpec(...)``. Everything else (the benchmark class, its report view, its
analyses) is named by ``"module:attribute"`` strings and imported only when used, so listing
benchmarks never imports torch or llama.cpp. The core names no benchmark.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from biasaudit.benchmark_spec import BenchmarkSpec, DataSource, Declaration
from biasaudit.discovery import (
    ENTRY_POINT_GROUP,
    DiscoveryProblem,
    declared_sources,
    discover,
    discovery_problems,
    spec_sources,
)
from biasaudit.errors import PluginError, UnknownNameError, one_line
from biasaudit.importing import did_you_mean, import_object
from biasaudit.profile_spec import BenchmarkProfile

if TYPE_CHECKING:
    from biasaudit.contract import Benchmark
    from biasaudit.data import DataStore


__all__ = [
    "ENTRY_POINT_GROUP",
    "BenchmarkSpec",
    "DataSource",
    "DiscoveryProblem",
    "benchmark_class",
    "build",
    "declaration",
    "declared_profile",
    "declared_sources",
    "discover",
    "discovery_problems",
    "get_spec",
    "names",
    "spec_sources",
]


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
            f"unknown benchmark '{name}'{did_you_mean(name, known)} (known: {', '.join(known)})"
        )
    return specs[name]


def declaration(name: str) -> Declaration:
    """Benchmark `name`'s declaration (spec, profile, sources), resolved once per process
    and kept while discovery returns the same spec. A profile or sources file that cannot
    be loaded is a one-line PluginError / DataError naming the benchmark."""
    spec = get_spec(name)
    cached = _declarations.get(name)
    if cached is not None and cached.spec is spec:
        return cached
    found = Declaration(spec=spec, profile=declared_profile(name), sources=spec_sources(spec))
    _declarations[name] = found
    return found


_declarations: dict[str, Declaration] = {}


def declared_profile(name: str) -> BenchmarkProfile:
    """The profile benchmark `name` declares (the default gates when it declares none),
    without its sources; a reference that does not load is a one-line PluginError."""
    spec = get_spec(name)
    if spec.profile is None:
        return BenchmarkProfile()
    try:
        declared = import_object(spec.profile)
    except Exception as exc:  # a plug-in's broken part is its own one-line error
        raise PluginError(
            f"benchmark '{name}': its profile {spec.profile} cannot be loaded ({one_line(exc)})"
        ) from None
    if not isinstance(declared, BenchmarkProfile):
        raise PluginError(
            f"benchmark '{name}': its profile {spec.profile} is not a BenchmarkProfile"
        )
    return declared


def benchmark_class(name: str) -> type[Benchmark]:
    """The benchmark class the spec names ("module:Class", or "package:task.yaml": a
    declarative multiple-choice task written in YAML, `biasaudit.declarative_yaml`)."""
    ref = get_spec(name).benchmark
    cls: type[Benchmark]
    if ref.endswith((".yaml", ".yml")):
        from biasaudit.declarative_yaml import yaml_benchmark

        cls = yaml_benchmark(ref)
    else:
        cls = import_object(ref)
    return cls


def build(name: str, options: dict[str, Any], store: DataStore, seed: int = 0) -> Benchmark:
    """Benchmark `name` built with `options` over `store`, carrying its `Declaration`
    (`Benchmark.declaration`): the one place a benchmark object is made from a name, and
    the one place its declaration is found by name. A broken declared part (a profile that
    does not load) is a one-line PluginError here, before anything runs."""
    bench = benchmark_class(name).from_dict(options, store, seed)
    bench.declaration = declaration(name)
    return bench
