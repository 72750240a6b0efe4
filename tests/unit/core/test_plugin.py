"""The plug-in contract: discovery, the import rules, and a third-party benchmark."""

from __future__ import annotations

import ast
import json
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from biasaudit import api, plugin
from biasaudit.analysis import analysis_of
from biasaudit.cli.app import main
from biasaudit.errors import UnknownNameError
from biasaudit.models.spec import BACKENDS

SRC = Path(plugin.__file__).resolve().parent
BENCHMARKS = SRC / "benchmarks"


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
    return found


def _packages() -> list[str]:
    return sorted(p.name for p in BENCHMARKS.iterdir() if (p / "__init__.py").is_file())


def test_builtin_benchmarks_are_discovered() -> None:
    assert set(_packages()) <= set(plugin.names())
    assert {"stop", "cobias", "calm"} <= set(plugin.names())


@pytest.mark.parametrize("package", _packages())
def test_benchmark_imports_only_the_plugin_api(package: str) -> None:
    """The conformance kit's allow-list (biasaudit.benchmarks.PLUGIN_API), on every file."""
    from biasaudit.testing.checks import _imports as resolved_imports
    from biasaudit.testing.checks import import_problem

    own = f"biasaudit.benchmarks.{package}"
    for path in sorted((BENCHMARKS / package).rglob("*.py")):
        for module in resolved_imports(path):
            problem = import_problem(module, own)
            assert problem is None, f"{path.relative_to(SRC)} imports {problem}"


@pytest.mark.parametrize(
    ("module", "allowed"),
    [
        ("biasaudit.benchmarks", True),
        ("biasaudit.metrics.frame", True),
        ("biasaudit.report.sections", True),
        ("biasaudit.benchmarks.stop.data", True),  # its own package
        ("numpy", True),
        ("biasaudit", False),
        ("biasaudit.api", False),
        ("biasaudit.runner.engine", False),
        ("biasaudit.models", False),
        ("biasaudit.plugin", False),
        ("biasaudit.profile.build", False),
        ("biasaudit.report.page", False),
        ("biasaudit.cli.app", False),
        ("biasaudit.testing", False),
        ("biasaudit.benchmarksx", False),
        ("biasaudit.benchmarks.bbq", False),  # another benchmark
        ("argparse", False),
    ],
)
def test_the_import_check_is_an_allow_list(module: str, allowed: bool) -> None:
    from biasaudit.testing.checks import import_problem

    assert (import_problem(module, "biasaudit.benchmarks.stop") is None) is allowed


def test_the_docs_list_the_plugin_api() -> None:
    from biasaudit.benchmarks import PLUGIN_API

    rules = (SRC.parents[1] / "docs" / "adding-a-benchmark.md").read_text()
    assert [m for m in PLUGIN_API if f"`{m}`" not in rules] == []


def test_no_core_module_names_a_benchmark() -> None:
    names = set(_packages())
    for path in sorted(SRC.rglob("*.py")):
        if BENCHMARKS in path.parents:
            continue
        text = path.read_text()
        for module in _imports(path):
            parts = module.split(".")
            assert not (
                parts[:2] == ["biasaudit", "benchmarks"] and len(parts) > 2 and parts[2] in names
            ), f"{path.relative_to(SRC)} imports benchmark module {module}"
        for name in names:
            assert f"benchmarks.{name}" not in text, f"{path.relative_to(SRC)} names {name}"


def test_unknown_benchmark_and_analysis_suggest() -> None:
    with pytest.raises(UnknownNameError, match="did you mean 'stop'"):
        plugin.get_spec("stpo")
    with pytest.raises(UnknownNameError, match="did you mean 'reproduce'"):
        analysis_of("stop", "reproduse")


TOY_INIT = """
from biasaudit.plugin import BenchmarkSpec

SPEC = BenchmarkSpec(
    name="toy",
    title="Toy: the share of 'yes' answers",
    citation="written for the plug-in test",
    benchmark="toybench.benchmark:Toy",
    analyses={"count": "toybench.analyses:COUNT"},
)
"""

TOY_BENCHMARK = """
from biasaudit.benchmarks import Benchmark, MetricSpec, Sample, SampleScore
from biasaudit.requests import Capability, GenerateRequest


class Toy(Benchmark):
    name = "toy"
    version = "1"
    metrics = [MetricSpec(name="yes_rate", score="yes", group_by=["colour"], noise_floor=True)]

    def required_capabilities(self):
        return frozenset({Capability.GENERATE})

    def data_keys(self):
        return []

    def load_samples(self):
        colours = ["red", "blue"]
        return [Sample(f"toy-{i}", {"i": i}, {"colour": colours[i % 2]}) for i in range(8)]

    def next_requests(self, sample, exchanges):
        if exchanges:
            return []
        return [GenerateRequest(prompt=f"Is {sample.data['i']} even? Answer yes or no.")]

    def expected_requests(self, sample):
        return 1

    def score_sample(self, sample, exchanges):
        response = exchanges[0].response
        if not response.ok:
            return SampleScore(["error"], {}, True, "request failed")
        said_yes = response.text.strip().lower().startswith("yes")
        return SampleScore(["answered"], {"yes": said_yes})
"""

TOY_ANALYSES = """
from pydantic import BaseModel, Field

from biasaudit.analysis import Analysis, AnalysisResult, Check


class CountArgs(BaseModel):
    expected: int = Field(8, description="how many samples the toy benchmark should have")


def count(args, ctx):
    from toybench.benchmark import Toy

    n = len(Toy.from_dict({}, ctx.store).load_samples())
    checks = [Check("samples", args.expected, n)]
    return AnalysisResult(benchmark="toy", analysis="count", checks=checks)


COUNT = Analysis("count", "count the toy samples", CountArgs, count)
"""


@pytest.fixture
def toy_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A benchmark in a separate package, registered only through the entry-point group."""
    package = tmp_path / "toybench"
    package.mkdir()
    (package / "__init__.py").write_text(textwrap.dedent(TOY_INIT))
    (package / "benchmark.py").write_text(textwrap.dedent(TOY_BENCHMARK))
    (package / "analyses.py").write_text(textwrap.dedent(TOY_ANALYSES))
    dist = tmp_path / "toybench-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: toybench\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[biasaudit.benchmarks]\ntoy = toybench\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(BACKENDS._paths, "fake", "biasaudit.testing.fake_backend:FakeBackend")
    monkeypatch.setitem(BACKENDS._descriptions, "fake", "conformance fake")
    plugin.discover.cache_clear()
    yield tmp_path
    plugin.discover.cache_clear()
    for name in [m for m in sys.modules if m.startswith("toybench")]:
        del sys.modules[name]


def test_toy_benchmark_from_an_entry_point(
    toy_package: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "toy" in plugin.names()
    out = tmp_path / "run"
    run = api.evaluate("toy", "fake", output_dir=out, progress=False, use_cache=False)
    metric = run.benchmark("toy").metric("yes_rate")
    assert metric.n == 8
    assert [b.by for b in metric.breakdowns] == ["colour"]
    assert metric.breakdowns[0].noise_floor is not None
    assert metric.score_key == "yes"
    before = (out / "results.json").read_bytes()
    api.score(out)
    assert (out / "results.json").read_bytes() == before

    assert main(["report", str(out), "--output", str(tmp_path / "r.html")]) == 0
    page = (tmp_path / "r.html").read_text()
    assert "yes_rate" in page
    # 8 samples are below the validity gate's n >= 10 (docs/profile.md): no value, gap or
    # noise floor of the metric is shown, only the reason
    assert "not measurable: n = 8 (&lt; 10)" in page
    assert "shuffled within" not in page
    capsys.readouterr()
    assert main(["list", "benchmarks", "--json"]) == 0
    listed = {item["name"]: item for item in json.loads(capsys.readouterr().out)}
    assert listed["toy"]["analyses"] == ["count"]
    assert main(["toy", "count", "--expected", "8"]) == 0
    assert "1/1 checks passed" in capsys.readouterr().out
    assert main(["toy", "count", "--expected", "9"]) == 1
    assert main(["toy", "count", "--expected", "nine"]) == 2
    assert "--expected" in capsys.readouterr().err
