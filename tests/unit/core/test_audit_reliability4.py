"""Issue 33 (reliability round 4): the audit keeps the promises `run` keeps.

Each test reproduces a case of ../shared/audits/reliability-3.md on the conformance fake
backend and failed on the code before its fix."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from biasaudit.audit.folder import read_audit
from biasaudit.audit.run import audit
from biasaudit.cli.app import main
from biasaudit.models.spec import BACKENDS

pytest_plugins: list[str] = []

BENCHES = ["crows_pairs", "stop"]


@pytest.fixture(autouse=True)
def fake_backend(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(BACKENDS._paths, "fake", "biasaudit.testing.fake_backend:FakeBackend")
    monkeypatch.setitem(BACKENDS._descriptions, "fake", "conformance fake")
    yield


def _audit(out: Path, **kwargs: Any) -> Any:
    return audit(["fake:a"], "demo", out, benchmarks=BENCHES, progress=False, **kwargs)


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("stop.max_tokns=5", "max_tokns"),  # a typo
        ("stop.max_tokens=-5", "max_tokens"),
        ("stop.temperature=nan", "temperature"),
    ],
)
def test_a_mistake_in_one_benchmarks_option_is_exit_2_not_a_skip(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, message: str
) -> None:
    out = tmp_path / "audit"
    args = ["audit", "-m", "fake:a", "--suite", "demo", "--benchmarks", ",".join(BENCHES)]
    assert main([*args, "-o", str(out), "-q", "-O", option]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0] and "Traceback" not in err[0]
    assert not (out / "audit.json").exists()  # no "complete" audit without STOP


def test_merge_of_an_incomplete_shard_set_is_partial(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for i in (0, 1):  # shard 2/3 missing
        _audit(tmp_path / f"s{i}", shard=(i, 3))
    merged = tmp_path / "merged"
    code = main(["merge", str(tmp_path / "s0"), str(tmp_path / "s1"), "-o", str(merged)])
    printed = capsys.readouterr().out
    info = read_audit(merged)
    assert info.status == "partial", info.status
    assert "(complete)" not in printed
    assert code == 3  # as run-level merge of a partial set
    reasons = " ".join(b.reason or "" for b in info.benchmarks)
    assert "2/3" in reasons or "missing" in reasons


def _killed(*args: Any, **kwargs: Any) -> Any:
    raise KeyboardInterrupt  # the process dies inside the engine, before any benchmark ends


@pytest.mark.parametrize("several", [False, True])
def test_overwrite_killed_before_the_first_benchmark_never_reads_complete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, several: bool
) -> None:
    out = tmp_path / "audit"
    models = ["fake:a", "fake:b"] if several else ["fake:a"]
    audit(models, "demo", out, benchmarks=BENCHES, progress=False)
    model_dir = out / "fake_b" if several else out
    assert read_audit(out).status == "complete" and (model_dir / "card.md").exists()
    import biasaudit.audit.run as audit_run

    monkeypatch.setattr(audit_run, "run_plan", _killed)
    with pytest.raises(KeyboardInterrupt):
        audit(models, "demo", out, benchmarks=BENCHES, progress=False, overwrite=True)
    assert read_audit(out).status == "running"  # not the old run's "complete"
    first = out / "fake_a" if several else out
    assert read_audit(first).status == "running"
    for name in ("card.md", "card.json", "profile.json", "profile.csv"):
        assert not (first / name).exists(), name


BROKEN_PROFILE_SPEC = """
from biasaudit.benchmarks import BenchmarkSpec, SuiteDecl, SuiteEntry

SPEC = BenchmarkSpec(
    name="badprofile",
    title="A plug-in whose profile reference is wrong",
    benchmark="badprofile.benchmark:Toy",
    profile="badprofile.profil:PROFILE",
    suites=SuiteDecl(strata=("colour",), demo=SuiteEntry(size=4)),
)
"""


def _broken_profile_plugin(root: Path) -> None:
    from test_testing_kit import BENCHMARK

    from plugin_packages import write_package

    body = BENCHMARK.format(name="badprofile", extra_import="", expected=1, excluded=True)
    files = {"__init__.py": BROKEN_PROFILE_SPEC, "benchmark.py": body}
    write_package(root, "badprofile", files, {"badprofile": "badprofile"})


@pytest.mark.parametrize("benchmarks", [["crows_pairs"], ["crows_pairs", "badprofile"]])
def test_a_plugin_with_a_wrong_profile_reference_breaks_only_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, benchmarks: list[str]
) -> None:
    from plugin_packages import on_path

    _broken_profile_plugin(tmp_path / "site")
    out = tmp_path / "audit"
    with on_path(tmp_path / "site", monkeypatch, "badprofile"):
        audit(["fake:a"], "demo", out, benchmarks=benchmarks, progress=False)
        info = read_audit(out)
    rows = {b.name: b for b in info.benchmarks}
    assert rows["crows_pairs"].status == "complete"
    assert (out / "card.md").exists()
    if "badprofile" in benchmarks:
        assert rows["badprofile"].status == "skipped"
        assert "badprofile.profil:PROFILE" in (rows["badprofile"].reason or "")


def test_the_conformance_kit_reports_a_broken_profile_as_a_failed_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from biasaudit.testing import ConformanceError, check_benchmark
    from plugin_packages import on_path

    _broken_profile_plugin(tmp_path / "site")
    broken = pytest.raises(ConformanceError, match="badprofile.profil:PROFILE cannot be loaded")
    with on_path(tmp_path / "site", monkeypatch, "badprofile"), broken:
        check_benchmark("badprofile", checks=["declarations"])


def test_the_conformance_kit_checks_suite_keys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from test_testing_kit import BENCHMARK

    from biasaudit.testing import ConformanceError, check_benchmark
    from plugin_packages import on_path, write_package

    spec = BROKEN_PROFILE_SPEC.replace('    profile="badprofile.profil:PROFILE",\n', "").replace(
        'strata=("colour",)', 'strata=("colur",)'
    )
    body = BENCHMARK.format(name="badprofile", extra_import="", expected=1, excluded=True)
    write_package(tmp_path / "site", "badprofile", {"__init__.py": spec, "benchmark.py": body},
                  {"badprofile": "badprofile"})  # fmt: skip
    wrong_key = pytest.raises(ConformanceError, match=r"suite demo: keys \['colur'\]")
    with on_path(tmp_path / "site", monkeypatch, "badprofile"), wrong_key:
        check_benchmark("badprofile", checks=["declarations"])


def test_a_several_model_audit_whose_last_model_did_not_finish_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import biasaudit.audit.run as audit_run

    out = tmp_path / "audit"
    real = audit_run.run_plan
    calls = {"n": 0}

    def dies_on_the_second_model(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt  # killed while the second model runs
        return real(*args, **kwargs)

    monkeypatch.setattr(audit_run, "run_plan", dies_on_the_second_model)
    with pytest.raises(KeyboardInterrupt):
        audit(["fake:a", "fake:b"], "demo", out, benchmarks=BENCHES, progress=False)
    assert read_audit(out).status == "running"
    capsys.readouterr()
    for command in (["card", str(out)], ["profile", str(out)]):
        assert main(command) == 3, command
        err = capsys.readouterr().err
        assert "fake:b has no results" in err and "is running" in err, (command, err)
    assert "Incomplete audit" in (out / "card.md").read_text()
    assert main(["report", str(out), "-o", str(tmp_path / "r.html")]) in (0, 3)
    assert "fake:b has no results" in capsys.readouterr().err


def test_biasaudit_list_names_a_broken_profile_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from plugin_packages import on_path

    _broken_profile_plugin(tmp_path / "site")
    with on_path(tmp_path / "site", monkeypatch, "badprofile"):
        assert main(["list", "benchmarks"]) == 0
        captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if "badprofile" in line]
    assert len(lines) == 1 and "badprofile.profil:PROFILE cannot be loaded" in lines[0]
    assert "Traceback" not in captured.err
    assert "badprofile" in captured.out  # still listed
