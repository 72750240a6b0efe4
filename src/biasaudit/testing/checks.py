"""The conformance battery: the same checks for every benchmark, in-tree or third-party.

Each check takes a `Subject` (the benchmark's name, its data store, a backend spec, a limit
and a scratch folder) and raises `ConformanceError` naming the benchmark and what is wrong.
Requests are answered by the deterministic `FakeBackend` (its ``fake:error`` twin for the
error checks); the run check uses `Subject.backend` ("fake" unless told otherwise).
"""

from __future__ import annotations

import ast
import importlib.util
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from biasaudit import importing, plugin
from biasaudit.analysis import analysis_of
from biasaudit.benchmark_spec import BenchmarkSpec
from biasaudit.benchmarks import PLUGIN_API
from biasaudit.contract import Benchmark, Sample
from biasaudit.data import DataStore
from biasaudit.errors import DataError, one_line
from biasaudit.requests import Capability
from biasaudit.results.schema import Exchange, MetricValue

#: Where the fake backend lives (registered as "fake" while checks run).
FAKE_BACKEND = "biasaudit.testing.fake_backend:FakeBackend"
#: Modules outside biasaudit a benchmark must not import (a benchmark never parses a
#: command line); inside biasaudit, only `biasaudit.benchmarks.PLUGIN_API` is allowed.
FORBIDDEN_IMPORTS = ("argparse",)
MAX_ROUNDS = 50


class ConformanceError(AssertionError):
    """A benchmark breaks the plug-in contract."""


@dataclass
class Subject:
    """What a check needs: the benchmark and the means to run it."""

    name: str
    store: DataStore
    data_dir: Path | None = None
    backend: str = "fake"
    limit: int = 6
    scratch: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="biasaudit-")))

    @property
    def spec(self) -> BenchmarkSpec:
        return plugin.get_spec(self.name)

    def bench(self, seed: int = 0) -> Benchmark:
        return plugin.build(self.name, {}, self.store, seed)

    def samples(self, bench: Benchmark) -> list[Sample]:
        return bench.load_samples()[: self.limit]


def _require(condition: object, subject: Subject, message: str) -> None:
    if not condition:
        raise ConformanceError(f"{subject.name}: {message}")


@contextmanager
def fake_backend() -> Iterator[None]:
    """The fake backend registered as "fake" (and "fake:error") inside the block."""
    from biasaudit.models.spec import BACKENDS

    if "fake" in BACKENDS.names():  # already registered (a test did it): leave it
        yield
        return
    with BACKENDS.temporarily("fake", FAKE_BACKEND, "deterministic conformance backend"):
        yield


def drive(bench: Benchmark, sample: Sample, fail: bool) -> list[Exchange]:
    """Run one sample to completion on the fake backend, outside the runner."""
    from biasaudit.testing.fake_backend import FakeBackend

    backend = FakeBackend(fail=fail)
    bench.bind_backend(backend.capabilities)
    exchanges: list[Exchange] = []
    for _ in range(MAX_ROUNDS):
        requests = bench.next_requests(sample, exchanges)
        if not requests:
            return exchanges
        for request in requests:
            if Capability(request.kind) not in bench.required_capabilities():
                raise ConformanceError(
                    f"{bench.name}: emitted {request.kind}, not in required_capabilities()"
                )
            (response,) = backend.dispatch(Capability(request.kind), [request])
            exchanges.append(Exchange(request=request, response=response))
    raise ConformanceError(
        f"{bench.name}: sample {sample.id} did not finish in {MAX_ROUNDS} rounds"
    )


# --- the checks ----------------------------------------------------------------------------


def check_spec(s: Subject) -> None:
    """The class's name is the spec's; title and citation set; analyses resolve."""
    spec = s.spec
    cls = plugin.benchmark_class(s.name)
    _require(cls.name == spec.name == s.name, s, f"class name {cls.name!r} != spec name")
    _require(spec.title and spec.citation, s, "the spec needs a title and a citation")
    for analysis in spec.analyses:
        _require(analysis_of(s.name, analysis).name == analysis, s, f"analysis {analysis}")


def _project_root(spec: BenchmarkSpec) -> Path | None:
    found = importlib.util.find_spec(spec.benchmark.partition(":")[0].split(".")[0])
    origin = Path(found.origin) if found and found.origin else None
    for folder in origin.parents if origin else []:
        if (folder / "pyproject.toml").is_file():
            return folder
    return None


def docs_page(spec: BenchmarkSpec) -> str:
    """The text of the spec's docs page (`BenchmarkSpec.docs`), or a ConformanceError."""
    where = spec.docs
    if not where:
        raise ConformanceError(f"{spec.name}: the spec names no docs page (BenchmarkSpec.docs)")
    if where.startswith("https://"):
        return where  # a published page; it cannot be read offline
    if ":" in where:
        try:
            return importing.read_resource(where)
        except DataError as exc:
            raise ConformanceError(f"{spec.name}: docs page {exc}") from None
    root = _project_root(spec)
    if root is None:
        raise ConformanceError(
            f"{spec.name}: docs page {where} is a path in a source checkout, and the package "
            f"is not in one (ship the page in the package: docs='package:file.md')"
        )
    page = root / where
    if not page.is_file():
        raise ConformanceError(f"{spec.name}: docs page {where} not found under {root}")
    return page.read_text(encoding="utf-8")


def check_docs(s: Subject) -> None:
    """The docs page named by the spec exists and is not empty."""
    _require(docs_page(s.spec).strip(), s, "the docs page is empty")


def check_ids(s: Subject) -> None:
    """Sample ids are unique and the same on every load."""
    first = [x.id for x in s.bench().load_samples()]
    second = [x.id for x in s.bench().load_samples()]
    _require(first, s, "no samples")
    _require(len(set(first)) == len(first), s, "duplicate sample ids")
    _require(first == second, s, "sample ids or their order change between loads")


def check_options_round_trip(s: Subject) -> None:
    """The default options, dumped to JSON and read back, are equal."""
    bench = s.bench()
    again = type(bench).from_dict(bench.options.model_dump(mode="json"), s.store)
    _require(again.options == bench.options, s, "options do not survive a JSON round trip")


def check_requests(s: Subject) -> None:
    """Requests stay within the declared capabilities; expected_requests is honest."""
    from biasaudit.runner.runner import score_record

    bench = s.bench()
    for sample in s.samples(bench):
        exchanges = drive(bench, sample, fail=False)
        expected = bench.expected_requests(sample)
        _require(
            expected is None or expected == len(exchanges),
            s,
            f"expected_requests says {expected} for {sample.id}, it sent {len(exchanges)}",
        )
        _require(score_record(bench, sample, exchanges).sample_id == sample.id, s, "record id")


def _nothing_is_ideal(s: Subject, metrics: Sequence[MetricValue]) -> None:
    for metric in metrics:
        if metric.n == 0:
            _require(metric.value is None, s, f"metric {metric.name} has a value on no data")


def check_error_outcomes(s: Subject) -> None:
    """Failed requests become excluded samples with a reason; nothing is ideal on them."""
    from biasaudit.runner.runner import score_record

    bench = s.bench()
    records = []
    for sample in s.samples(bench):
        record = score_record(bench, sample, drive(bench, sample, fail=True))
        _require(record.excluded, s, f"sample {sample.id}: all requests failed, not excluded")
        _require(record.exclusion_reason, s, f"sample {sample.id}: exclusion without a reason")
        records.append(record)
    _nothing_is_ideal(s, bench.aggregate(records, seed=0).metrics)


def check_empty_aggregate(s: Subject) -> None:
    """Aggregating nothing gives every declared metric, none of them with a value."""
    bench = s.bench()
    aggregate = bench.aggregate([], seed=0)
    _nothing_is_ideal(s, aggregate.metrics)
    missing = {m.name for m in bench.metric_specs()} - {m.name for m in aggregate.metrics}
    _require(not missing, s, f"declared metrics missing from the aggregate: {sorted(missing)}")


def check_run_score_seed_report(s: Subject) -> None:
    """Two runs with one seed write the same samples.jsonl; declared metrics are in the
    results; `score` reproduces results.json byte for byte; the report has no failed view."""
    from biasaudit import api
    from biasaudit.report.page import write_report
    from biasaudit.results.io import read_results

    runs = []
    for label in ("a", "b"):
        out = s.scratch / f"{s.name}-run-{label}"
        api.evaluate(
            s.name,
            s.backend,
            output_dir=out,
            data_dir=s.data_dir,
            limit=s.limit,
            progress=False,
            use_cache=False,
            overwrite=True,
        )
        runs.append(out)
    first, second = runs
    same = (first / "samples.jsonl").read_bytes() == (second / "samples.jsonl").read_bytes()
    _require(same, s, "two runs with the same seed wrote different samples.jsonl")
    result = read_results(first).benchmark(s.name)
    bench = s.bench()
    if s.backend == "fake":  # the metrics declared for the options the run settled
        from biasaudit.testing.fake_backend import FakeBackend

        bench.bind_backend(FakeBackend().capabilities)
        declared = {m.name for m in bench.metric_specs()}
    else:
        declared = {m.name for m in bench.metrics}
    missing = declared - {m.name for m in result.metrics}
    _require(not missing, s, f"declared metrics missing from results.json: {sorted(missing)}")
    before = (first / "results.json").read_bytes()
    api.score(first, data_dir=s.data_dir)
    _require((first / "results.json").read_bytes() == before, s, "score changes results.json")
    html = write_report([first], s.scratch / f"{s.name}-report.html").read_text()
    _require("view failed" not in html, s, "a report view failed")
    _check_profile_effect(s, first)


def _check_profile_effect(s: Subject, run_dir: Path) -> None:
    """The declared profile effect is computable on the run: the profile builds, and when
    the run has cells of the benchmark's effect, at least one of them read an item."""
    from biasaudit.profile.build import profile_of_dir
    from biasaudit.profile.validity import benchmark_profile

    effect = benchmark_profile(s.name).effect
    if effect is None:
        return
    try:
        profile = profile_of_dir(run_dir)
    except Exception as exc:  # reported as the failed check it is
        first = one_line(exc)
        raise ConformanceError(
            f"{s.name}: the profile cannot be built on a {s.backend} run ({first})"
        ) from None
    cells = [c for c in profile.cells if c.benchmark == s.name]
    _require(  # no cell at all: the effect is for other options (BEADs: task=stereotype)
        not cells or any(c.n > 0 for c in cells),
        s,
        f"the profile effect ({effect.metric}) read no item of a {s.backend} run "
        f"({len(cells)} cells, all n = 0): check its score key, group key and where",
    )


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a parent that is not a package, a bad name
        return False


def _imports(path: Path) -> list[str]:
    """Every module `path` imports, at any depth (``from a import b`` is ``a.b`` when that is
    a module, else ``a``)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                found.append(full if _is_module(full) else node.module)
    return found


def package_of(spec: BenchmarkSpec) -> str:
    """The package holding a benchmark: ``biasaudit.benchmarks.<folder>`` or a top level."""
    module = spec.benchmark.partition(":")[0]
    parts = module.split(".")
    return ".".join(parts[:3]) if parts[:2] == ["biasaudit", "benchmarks"] else parts[0]


def _package_files(package: str) -> list[Path]:
    found = importlib.util.find_spec(package)
    folders = list(found.submodule_search_locations or []) if found else []
    if not folders and found and found.origin:
        return [Path(found.origin)]
    return sorted(p for folder in folders for p in Path(folder).rglob("*.py"))


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(f"{package}.")


def import_problem(module: str, own: str) -> str | None:
    """Why a benchmark in package `own` may not import `module` (None: it may)."""
    if module.startswith(FORBIDDEN_IMPORTS):
        return f"{module} (a benchmark parses no command line)"
    if not _inside(module, "biasaudit") or _inside(module, own):
        return None
    if module == "biasaudit" or not any(_inside(module, api) for api in PLUGIN_API):
        return f"{module} (not part of the plug-in API: biasaudit.benchmarks.PLUGIN_API)"
    if _inside(module, "biasaudit.benchmarks") and module != "biasaudit.benchmarks":
        return f"{module} (another benchmark's package)"
    return None


def check_imports(s: Subject) -> None:
    """The benchmark imports only the plug-in API (`biasaudit.benchmarks.PLUGIN_API`, an
    allow-list), its own package and packages outside biasaudit: never the engine, the
    backends, the command line, this kit or another benchmark's package."""
    own = package_of(s.spec)
    files = _package_files(own)
    _require(files, s, f"package {own} has no Python files")
    for path in files:
        for module in _imports(path):
            problem = import_problem(module, own)
            _require(problem is None, s, f"{path.name} imports {problem}")


def check_declarations(s: Subject) -> None:
    """The declared parts resolve (`biasaudit.declarations`): the profile (a
    BenchmarkProfile whose effect's axes are known, or it fails to build), the analyses, the
    report view and the sources; and the suites fit the samples (their strata, cover and unit
    keys are sample groups; each size at least what the strata keep)."""
    from biasaudit.declarations import part_problems, suite_problems

    problems = part_problems(s.name, s.spec)
    if not problems:
        groups = [sample.groups for sample in s.bench().load_samples()]
        problems = suite_problems(s.name, s.spec, groups)
    _require(not problems, s, "; ".join(problems))


#: Every check, in the order they run.
CHECKS: dict[str, Callable[[Subject], None]] = {
    "spec": check_spec,
    "docs": check_docs,
    "ids": check_ids,
    "options_round_trip": check_options_round_trip,
    "requests": check_requests,
    "error_outcomes": check_error_outcomes,
    "empty_aggregate": check_empty_aggregate,
    "run_score_seed_report": check_run_score_seed_report,
    "imports": check_imports,
    "declarations": check_declarations,
}


def run_check(check: str, subject: Subject) -> None:
    with fake_backend():
        CHECKS[check](subject)


__all__ = ["CHECKS", "ConformanceError", "Subject", "docs_page", "drive", "run_check"]
