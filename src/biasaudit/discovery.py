"""Finding benchmark plug-ins and the data files they declare.

`discover` imports each package under `biasaudit.benchmarks` and each ``biasaudit.benchmarks``
entry point, and keeps the `BenchmarkSpec` each provides. A plug-in that fails is left out and
recorded (`discovery_problems`), so one broken package never stops the others. The data store
reads the pinned files the specs declare (`declared_sources`).

This module imports only the spec models and the data layer; `biasaudit.plugin` (the
benchmark classes and analyses by name) builds on it. `open_store` gives a `DataStore` the
declared sources (the store itself knows no benchmark).
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import Any

from biasaudit.benchmark_spec import BenchmarkSpec
from biasaudit.data.source import DataSource
from biasaudit.data.store import DataStore
from biasaudit.errors import DataError, one_line
from biasaudit.importing import entry_points, import_object, read_resource

#: Entry-point group through which other packages add benchmarks.
ENTRY_POINT_GROUP = "biasaudit.benchmarks"
#: ... analyses of an installed benchmark (``BENCHMARK.ANALYSIS = module:attr``).
ANALYSIS_ENTRY_POINTS = "biasaudit.analyses"
#: ... the profile of an installed benchmark that declares none (``BENCHMARK = module:attr``).
PROFILE_ENTRY_POINTS = "biasaudit.profiles"


class _NotAPlugin(Exception):
    pass


def _spec_of(obj: Any, origin: str) -> BenchmarkSpec:
    spec = getattr(obj, "SPEC", obj)
    if not isinstance(spec, BenchmarkSpec):
        if obj is None:  # an in-tree folder without SPEC (a helper package) is not a plug-in
            raise _NotAPlugin
        raise TypeError(f"{origin} does not provide a BenchmarkSpec (SPEC)")
    return spec


@dataclass(frozen=True)
class DiscoveryProblem:
    """A plug-in that could not be added: it failed to import, or it reuses a name."""

    #: The benchmark name when known (an entry point's name, an in-tree folder's name).
    name: str
    origin: str
    message: str
    traceback: str = ""

    def line(self) -> str:
        return f"plug-in {self.origin} skipped: {self.message}"


#: What the last `discover` left out (filled by it; read through `discovery_problems`).
_problems: list[DiscoveryProblem] = []


@cache
def discover() -> dict[str, BenchmarkSpec]:
    """All benchmark specs: the packages under `biasaudit.benchmarks`, then entry points.

    A plug-in that fails to import, provides no spec, or reuses a name is left out and
    recorded (`discovery_problems`); every other benchmark still works.
    """
    import biasaudit.benchmarks as package

    found: dict[str, tuple[BenchmarkSpec, str]] = {}
    problems = _problems
    problems.clear()

    def add(name: str, origin: str, load: Callable[[], Any]) -> None:
        # Isolated: whatever one plug-in raises is recorded, and discovery goes on.
        try:
            spec = _spec_of(load(), origin)
        except _NotAPlugin:
            return
        except Exception as exc:
            message = one_line(exc)
            problems.append(DiscoveryProblem(name, origin, message, traceback.format_exc()))
            return
        if spec.name in found:
            first = found[spec.name][1]
            message = f"benchmark '{spec.name}' is already declared by {first}"
            problems.append(DiscoveryProblem(spec.name, origin, message))
            return
        found[spec.name] = (spec, origin)

    for info in pkgutil.iter_modules(package.__path__):
        if info.ispkg:
            module_name = f"{package.__name__}.{info.name}"
            add(info.name, module_name, partial(_module_spec, module_name))
    for name, ref in entry_points(ENTRY_POINT_GROUP):
        add(name, f"entry point {name} = {ref}", partial(_load, ref))
    specs = {name: found[name][0] for name in sorted(found)}
    return _with_installed_parts(specs, problems)


def _load(ref: str) -> Any:
    """An entry point's object: ``module:attribute``, or a module."""
    return import_object(ref) if ":" in ref else importlib.import_module(ref)


def _with_installed_parts(
    specs: dict[str, BenchmarkSpec], problems: list[DiscoveryProblem]
) -> dict[str, BenchmarkSpec]:
    """The specs with the analyses and profiles installed packages add to them: an entry
    point ``BENCHMARK.ANALYSIS = module:attr`` in `ANALYSIS_ENTRY_POINTS` is one more analysis
    of BENCHMARK; ``BENCHMARK = module:attr`` in `PROFILE_ENTRY_POINTS` is the profile of a
    benchmark that declares none. A benchmark's own declarations always win (the entry point
    is left out and recorded); nothing is imported here."""
    for name, ref in entry_points(ANALYSIS_ENTRY_POINTS):
        origin = f"entry point {name} = {ref}"
        bench, _, analysis = name.partition(".")
        spec = specs.get(bench)
        if spec is None or not analysis:
            message = f"'{name}' names no installed benchmark (BENCHMARK.ANALYSIS)"
            problems.append(DiscoveryProblem(bench, origin, message))
        elif analysis in spec.analyses:
            message = f"benchmark '{bench}' already declares the analysis '{analysis}'"
            problems.append(DiscoveryProblem(bench, origin, message))
        else:
            specs[bench] = spec.model_copy(update={"analyses": {**spec.analyses, analysis: ref}})
    for name, ref in entry_points(PROFILE_ENTRY_POINTS):
        origin = f"entry point {name} = {ref}"
        spec = specs.get(name)
        if spec is None:
            problems.append(DiscoveryProblem(name, origin, f"no installed benchmark '{name}'"))
        elif spec.profile is not None:
            message = f"benchmark '{name}' already declares its profile {spec.profile}"
            problems.append(DiscoveryProblem(name, origin, message))
        else:
            specs[name] = spec.model_copy(update={"profile": ref})
    return specs


def _module_spec(module_name: str) -> Any:
    module = importlib.import_module(module_name)
    return module.SPEC if hasattr(module, "SPEC") else None


def discovery_problems() -> tuple[DiscoveryProblem, ...]:
    """The plug-ins `discover` left out, and why."""
    discover()
    return tuple(_problems)


def _read_sources(ref: str) -> dict[str, DataSource]:
    try:
        raw = json.loads(read_resource(ref))
    except json.JSONDecodeError as exc:
        raise DataError(f"{ref}: not valid JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(raw, dict):
        raise DataError(f"{ref}: expected an object mapping data keys to sources")
    sources: dict[str, DataSource] = {}
    for key, entry in raw.items():
        try:
            sources[key] = DataSource.model_validate({**entry, "key": key})
        except (TypeError, ValueError) as exc:
            first = str(exc).splitlines()[:3]
            raise DataError(f"{ref}: source '{key}': {' '.join(first)}") from None
    return sources


def spec_sources(spec: BenchmarkSpec) -> dict[str, DataSource]:
    """The data files `spec` declares (empty when it declares none)."""
    return dict(_read_sources(spec.sources)) if spec.sources else {}


def declared_sources() -> dict[str, DataSource]:
    """Every pinned file that a discovered benchmark declares, by key.

    Benchmarks may share a file (STOP's downstream protocol reads BBQ's); two declarations of
    one key must agree on its sha256. A benchmark whose sources cannot be read is left out
    here (its own commands report why: `biasaudit validate NAME`).
    """
    specs = discover()
    if _declared_cache and _declared_cache[0] is specs:
        return _declared_cache[1]
    found: dict[str, tuple[DataSource, str]] = {}
    for name, spec in specs.items():
        try:
            sources = spec_sources(spec)
        except DataError:
            continue
        for key, source in sources.items():
            if key in found and found[key][0].sha256 != source.sha256:
                raise DataError(
                    f"data file '{key}' is pinned with two different sha256 "
                    f"({found[key][1]} and {name})"
                )
            found.setdefault(key, (source, name))
    declared = {key: pair[0] for key, pair in found.items()}
    _declared_cache[:] = [specs, declared]  # valid while discover() returns the same specs
    return declared


_declared_cache: list[Any] = []


def open_store(
    data_dir: str | Path | None = None,
    cache_dir: str | Path | None = None,
    download_timeout: float = 60.0,
    use_mirror: bool = True,
) -> DataStore:
    """A `DataStore` over every pinned file the discovered benchmarks declare (read when the
    first file is asked for); the arguments are `DataStore`'s."""
    return DataStore(data_dir, cache_dir, download_timeout, use_mirror, sources=declared_sources)


@contextmanager
def added(spec: BenchmarkSpec) -> Iterator[None]:
    """`spec` discovered inside the block, as if installed (the conformance kit uses this to
    check a spec that no entry point declares yet). A different spec of the same name is an
    error; the same spec already discovered is left as it is."""
    specs = discover()
    if spec.name in specs:
        if specs[spec.name] != spec:
            raise ValueError(f"another benchmark named '{spec.name}' is installed")
        yield
        return
    specs[spec.name] = spec
    _declared_cache.clear()
    try:
        yield
    finally:
        specs.pop(spec.name, None)
        _declared_cache.clear()
