"""Issue 33: a broken declared part of a plug-in (analyses, report view, sources, suite keys,
profile effect) breaks only its own benchmark: one line in `biasaudit list` (the parts that
need no data), a skip with that line in the audit while the other benchmarks complete, and a
failed check in the conformance kit. Each case ran silently before (the audit used the
benchmark anyway, `list` and the kit said nothing)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from test_testing_kit import BENCHMARK

from biasaudit.audit.folder import read_audit
from biasaudit.audit.run import audit
from biasaudit.cli.app import main
from biasaudit.models.spec import BACKENDS
from biasaudit.testing import ConformanceError, check_benchmark
from plugin_packages import on_path, write_package

SPEC = """
from biasaudit.benchmarks import BenchmarkSpec, SuiteDecl, SuiteEntry

SPEC = BenchmarkSpec(
    name="badpart",
    title="A plug-in with one wrong part",
    benchmark="badpart.benchmark:Toy",
    suites=SuiteDecl(strata=({strata!r},), demo=SuiteEntry(size=4)),
    {extra}
)
"""
#: case -> (SPEC line, strata key, the words of the one line that names it)
CASES = {
    "analysis": (
        'analyses={"x": "badpart.nosuch:ANALYSIS"},',
        "colour",
        "its analysis 'x' badpart.nosuch:ANALYSIS cannot be loaded",
    ),
    "report view": (
        'report_view="badpart.nosuch:view",',
        "colour",
        "its report view badpart.nosuch:view cannot be loaded",
    ),
    "sources": ('sources="badpart:nosuch.json",', "colour", "its sources cannot be read"),
    "suite key": ("", "colur", "['colur'] are not"),
}


@pytest.fixture(autouse=True)
def fake_backend(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(BACKENDS._paths, "fake", "biasaudit.testing.fake_backend:FakeBackend")
    monkeypatch.setitem(BACKENDS._descriptions, "fake", "conformance fake")
    yield


def _install(root: Path, extra: str, strata: str, files: dict[str, str] | None = None) -> None:
    body = BENCHMARK.format(name="badpart", extra_import="", expected=1, excluded=True)
    spec = SPEC.format(extra=extra, strata=strata)
    everything = {"__init__.py": spec, "benchmark.py": body, **(files or {})}
    write_package(root, "badpart", everything, {"badpart": "badpart"})


@pytest.mark.parametrize("case", list(CASES))
def test_a_broken_part_breaks_only_its_benchmark(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    extra, strata, words = CASES[case]
    _install(tmp_path / "site", extra, strata)
    out = tmp_path / "audit"
    with on_path(tmp_path / "site", monkeypatch, "badpart"):
        assert main(["list", "benchmarks"]) == 0
        listed = capsys.readouterr()
        audit(["fake:a"], "demo", out, benchmarks=["crows_pairs", "badpart"], progress=False)
        with pytest.raises(ConformanceError, match=r"\[declarations\] badpart: .*") as failed:
            check_benchmark("badpart", checks=["declarations"])
    assert words in str(failed.value)
    assert "badpart" in listed.out and "Traceback" not in listed.err
    named = [line for line in listed.err.splitlines() if "badpart" in line]
    if case == "suite key":  # needs the samples: the audit and the kit check it, not `list`
        assert named == []
    else:
        assert len(named) == 1 and words in named[0]
    rows = {b.name: b for b in read_audit(out).benchmarks}
    assert rows["crows_pairs"].status == "complete"
    assert rows["badpart"].status == "skipped" and words in (rows["badpart"].reason or "")


PROFILE = """
from biasaudit.benchmarks import BenchmarkProfile, Effect

PROFILE = BenchmarkProfile(
    effect=Effect(
        metric="yes rate",
        scale="share of yes",
        unbiased=0.5,
        direction="above 0.5: says yes",
        group_key="colour",
        axes={{"red": "gender", "blue": "race/ethnicity"}},
        value=lambda record: (
            None if record.scores.get({key!r}) is None else float(record.scores[{key!r}])
        ),
    )
)
"""


@pytest.mark.parametrize(("key", "passes"), [("yes", True), ("yess", False)])
def test_the_kit_computes_the_profile_effect_on_the_fake_backend(
    key: str, passes: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"profile.py": PROFILE.format(key=key), "doc.md": "# Toy\n\nWhat it measures.\n"}
    extra = 'profile="badpart.profile:PROFILE", docs="badpart:doc.md",'
    _install(tmp_path / "site", extra, "colour", files)
    with on_path(tmp_path / "site", monkeypatch, "badpart"):
        if passes:
            assert check_benchmark("badpart", checks=["run_score_seed_report"])
        else:
            with pytest.raises(ConformanceError, match="the profile effect .yes rate. read no"):
                check_benchmark("badpart", checks=["run_score_seed_report"])
