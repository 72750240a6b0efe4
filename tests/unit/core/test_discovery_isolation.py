"""A broken or duplicated plug-in is one line in `biasaudit list`; every other benchmark works.

The plug-ins are real installed packages: a package folder and its dist-info (with the
``biasaudit.benchmarks`` entry point) written into a temporary folder on sys.path.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from biasaudit import plugin
from biasaudit.cli.app import main
from plugin_packages import on_path, write_package

RAISES_ON_IMPORT = """
raise RuntimeError("this plug-in is broken on purpose")
"""

DUPLICATE = """
from biasaudit.benchmarks import BenchmarkSpec

SPEC = BenchmarkSpec(name="stop", title="An impostor", benchmark="dupbench.nothing:Nothing")
"""

BAD_CLASS = """
from biasaudit.benchmarks import BenchmarkSpec

SPEC = BenchmarkSpec(name="badclass", title="Spec fine, class broken", benchmark="badclass.b:B")
"""


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    write_package(root, "brokenbench", {"__init__.py": RAISES_ON_IMPORT}, {"broken": "brokenbench"})
    write_package(root, "dupbench", {"__init__.py": DUPLICATE}, {"stop": "dupbench"})
    files = {"__init__.py": BAD_CLASS, "b.py": "import no_such_module_anywhere\n"}
    write_package(root, "badclass", files, {"badclass": "badclass"})
    return root


def _builtin() -> set[str]:
    folder = Path(plugin.__file__).parent / "benchmarks"
    return {p.name for p in folder.iterdir() if (p / "__init__.py").is_file()}


def test_list_reports_each_bad_plugin_in_one_line(
    site: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with on_path(site, monkeypatch, "brokenbench", "dupbench", "badclass"):
        assert main(["list", "benchmarks", "--json"]) == 0
        captured = capsys.readouterr()
    listed = {item["name"]: item for item in json.loads(captured.out)}
    assert _builtin() <= set(listed)
    assert listed["stop"]["title"].startswith("STOP")  # the in-tree one, not the impostor
    assert listed["badclass"]["version"] == "(broken)"
    lines = captured.err.strip().splitlines()
    assert len(lines) == 3, captured.err
    broken, dup, bad = sorted(lines)[1], sorted(lines)[2], sorted(lines)[0]
    assert "entry point broken = brokenbench" in broken
    assert "RuntimeError: this plug-in is broken on purpose" in broken
    assert "--debug" in broken and "Traceback" not in captured.err
    assert "'stop' is already declared by biasaudit.benchmarks.stop" in dup
    assert "badclass" in bad and "No module named 'no_such_module_anywhere'" in bad


def test_debug_shows_the_traceback(
    site: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with on_path(site, monkeypatch, "brokenbench", "dupbench", "badclass"):
        assert main(["list", "benchmarks", "--debug"]) == 0
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err
    assert 'raise RuntimeError("this plug-in is broken on purpose")' in err


def test_other_benchmarks_still_work_and_the_broken_one_is_named(
    site: Path,
    data_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with on_path(site, monkeypatch, "brokenbench", "dupbench", "badclass"):
        assert main(["validate", "stop", "--data-dir", str(data_dir)]) == 0
        assert "stop: 4 data files verified" in capsys.readouterr().out
        assert main(["run", "broken", "--model", "embedded", "--quiet"]) == 2
        err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "benchmark 'broken': plug-in entry point broken = brokenbench skipped" in err
