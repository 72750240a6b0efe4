"""`biasaudit.testing` on a third-party package: a good plug-in passes every check, and a
plug-in that breaks each rule fails exactly the checks for those rules."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from biasaudit.testing import CHECKS, ConformanceError, check_benchmark
from plugin_packages import on_path, write_package

SPEC = """
from biasaudit.benchmarks import BenchmarkSpec

SPEC = BenchmarkSpec(
    name="{name}",
    title="Share of yes answers",
    citation="written for the testing-kit test",
    benchmark="{name}.benchmark:Toy",
    docs="{docs}",
)
"""

BENCHMARK = """
from biasaudit.benchmarks import Benchmark, MetricSpec, Sample, SampleScore
from biasaudit.requests import Capability, GenerateRequest
{extra_import}

class Toy(Benchmark):
    name, version = "{name}", "1"
    metrics = [MetricSpec(name="yes_rate", score="yes", group_by=["colour"])]

    def required_capabilities(self):
        return frozenset({{Capability.GENERATE}})

    def data_keys(self):
        return []

    def load_samples(self):
        colours = ["red", "blue"]
        return [Sample(f"toy-{{i}}", {{"i": i}}, {{"colour": colours[i % 2]}}) for i in range(8)]

    def next_requests(self, sample, exchanges):
        return [] if exchanges else [GenerateRequest(prompt=f"Is {{sample.data['i']}} even?")]

    def expected_requests(self, sample):
        return {expected}

    def score_sample(self, sample, exchanges):
        response = exchanges[0].response
        if not response.ok:
            return SampleScore(["error"], {{}}, {excluded}, "request failed")
        return SampleScore(["answered"], {{"yes": response.text.lower().startswith("yes")}})
"""


def _install(root: Path, name: str, *, bad: bool) -> None:
    files = {
        "__init__.py": SPEC.format(name=name, docs=f"{name}:{'missing' if bad else 'doc'}.md"),
        "doc.md": "# Toy\n\nWhat it measures.\n",
        "benchmark.py": BENCHMARK.format(
            name=name,
            extra_import="from biasaudit.runner.runner import score_record" if bad else "",
            expected=2 if bad else 1,
            excluded=not bad,
        ),
    }
    write_package(root, name, files, {name: name})


def test_a_good_plugin_passes_every_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _install(tmp_path, "goodtoy", bad=False)
    with on_path(tmp_path, monkeypatch, "goodtoy"):
        assert check_benchmark("goodtoy") == list(CHECKS)


def test_a_bad_plugin_fails_the_checks_of_the_rules_it_breaks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install(tmp_path, "badtoy", bad=True)
    with on_path(tmp_path, monkeypatch, "badtoy"), pytest.raises(ConformanceError) as caught:
        check_benchmark("badtoy")
    failed = sorted(line.split("]")[0].strip("[") for line in str(caught.value).splitlines())
    assert failed == ["docs", "error_outcomes", "imports", "requests"]
    text = str(caught.value)
    assert "expected_requests says 2" in text and "sent 1" in text
    assert "imports biasaudit.runner.runner" in text
    assert "all requests failed, not excluded" in text
    assert "badtoy:missing.md cannot be read" in text


def test_a_spec_that_no_entry_point_declares_can_be_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install(tmp_path, "loosetoy", bad=False)
    for dist in tmp_path.glob("*.dist-info"):  # importable, but not installed
        for f in dist.iterdir():
            f.unlink()
        dist.rmdir()
    with on_path(tmp_path, monkeypatch, "loosetoy"):
        from biasaudit import plugin

        assert "loosetoy" not in plugin.names()
        spec = importlib.import_module("loosetoy").SPEC
        assert check_benchmark(spec, checks=["spec", "docs", "ids", "requests"]) == [
            "spec", "docs", "ids", "requests",
        ]  # fmt: skip
        assert "loosetoy" not in plugin.names()
