"""Parts an installed package adds to another's benchmark through entry points (issue 30: one
mechanism for benchmarks, analyses, profiles and backends): ``biasaudit.analyses``
(``BENCHMARK.ANALYSIS = module:attr``) and ``biasaudit.profiles`` (``BENCHMARK = module:attr``,
for a benchmark that declares no profile). A benchmark's own declarations always win."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from test_testing_kit import BENCHMARK

from biasaudit import plugin
from biasaudit.analysis import analysis_of
from biasaudit.cli.app import main
from biasaudit.discovery import ANALYSIS_ENTRY_POINTS, ENTRY_POINT_GROUP, PROFILE_ENTRY_POINTS
from plugin_packages import on_path

PARTS = """
from pydantic import BaseModel

from biasaudit.analysis import Analysis, AnalysisResult
from biasaudit.benchmarks import BenchmarkProfile, Gates


class Args(BaseModel):
    pass


def count(args, ctx):
    return AnalysisResult(benchmark="stop", analysis="count", notes=["counted"])


COUNT = Analysis("count", "count the prompts", Args, count)
PROFILE = BenchmarkProfile(gates=Gates(min_n=3))
"""
NOPROFILE_SPEC = """
from biasaudit.benchmarks import BenchmarkSpec

SPEC = BenchmarkSpec(name="noprofile", title="A plug-in without a profile",
                     benchmark="noprofile.benchmark:Toy")
"""


def _install(root: Path) -> None:
    for name, files in {
        "extraparts": {"__init__.py": PARTS},
        "noprofile": {
            "__init__.py": NOPROFILE_SPEC,
            "benchmark.py": BENCHMARK.format(
                name="noprofile", extra_import="", expected=1, excluded=True
            ),
        },
    }.items():
        for file, text in files.items():
            (root / name).mkdir(parents=True, exist_ok=True)
            (root / name / file).write_text(textwrap.dedent(text))
    dist = root / "extraparts-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: extraparts\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        f"[{ENTRY_POINT_GROUP}]\nnoprofile = noprofile\n"
        f"[{ANALYSIS_ENTRY_POINTS}]\nstop.count = extraparts:COUNT\n"
        "stop.human = extraparts:COUNT\nnobench.count = extraparts:COUNT\n"
        f"[{PROFILE_ENTRY_POINTS}]\nnoprofile = extraparts:PROFILE\nstop = extraparts:PROFILE\n"
    )


def test_an_installed_analysis_and_profile_join_their_benchmark(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _install(tmp_path)
    with on_path(tmp_path, monkeypatch, "extraparts", "noprofile"):
        specs = plugin.discover()
        assert specs["stop"].analyses["count"] == "extraparts:COUNT"
        assert analysis_of("stop", "count").name == "count"
        assert specs["noprofile"].profile == "extraparts:PROFILE"
        assert plugin.declared_profile("noprofile").gates.min_n == 3
        # a benchmark's own declarations win: stop's human analysis and its profile stay
        assert specs["stop"].analyses["human"] != "extraparts:COUNT"
        assert specs["stop"].profile == "biasaudit.benchmarks.stop.profile:PROFILE"
        lines = [p.line() for p in plugin.discovery_problems()]
        assert main(["list", "analyses"]) == 0
        out = capsys.readouterr().out
    assert any(line.split()[:2] == ["stop", "count"] for line in out.splitlines())
    assert "count the prompts" in out
    assert lines == [
        "plug-in entry point stop.human = extraparts:COUNT skipped: benchmark 'stop' already "
        "declares the analysis 'human'",
        "plug-in entry point nobench.count = extraparts:COUNT skipped: 'nobench.count' names "
        "no installed benchmark (BENCHMARK.ANALYSIS)",
        "plug-in entry point stop = extraparts:PROFILE skipped: benchmark 'stop' already "
        "declares its profile biasaudit.benchmarks.stop.profile:PROFILE",
    ]


def test_without_the_package_nothing_is_added() -> None:
    plugin.discover.cache_clear()
    assert "count" not in plugin.discover()["stop"].analyses
