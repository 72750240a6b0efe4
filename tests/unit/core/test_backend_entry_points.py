"""A backend from an installed package (entry-point group ``biasaudit.backends``), written
as a dist-info beside examples/uniform-backend so `importlib.metadata` sees it as after
``pip install`` (issue 30: backends register like benchmark packages)."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from biasaudit.api import evaluate
from biasaudit.cli.app import main
from biasaudit.errors import UnknownNameError
from biasaudit.models.spec import BACKEND_ENTRY_POINTS, BACKENDS
from biasaudit.requests import LoglikelihoodRequest

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "uniform-backend"


def _install(root: Path, entries: dict[str, str]) -> None:
    dist = root / "biasaudit_uniform_backend-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: biasaudit-uniform-backend\nVersion: 1.0\n"
    )
    lines = "".join(f"{name} = {ref}\n" for name, ref in entries.items())
    (dist / "entry_points.txt").write_text(f"[{BACKEND_ENTRY_POINTS}]\n{lines}")


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    _install(
        tmp_path,
        {"uniform": "uniform_backend:UniformBackend", "embedded": "uniform_backend:X"},
    )
    monkeypatch.syspath_prepend(str(EXAMPLE))
    monkeypatch.syspath_prepend(str(tmp_path))
    BACKENDS.rescan()
    yield
    monkeypatch.undo()
    BACKENDS.rescan()
    sys.modules.pop("uniform_backend", None)


def test_an_installed_backend_is_listed_and_loaded(installed: None) -> None:
    assert "uniform" in BACKENDS.names()
    assert BACKENDS.origin("uniform") == "entry point"
    assert BACKENDS.origin("hf") == "built-in"
    assert BACKENDS.description("uniform") == (
        "Every character equally likely (1/V): the null model of log-likelihood benchmarks."
    )
    backend = BACKENDS.load("uniform").from_spec("2", {})
    [five] = backend.loglikelihood([LoglikelihoodRequest(context="x", continuation="abcde")])
    assert five.logprob is not None and math.isclose(five.logprob, -5 * math.log(2))  # by hand


def test_an_entry_point_never_replaces_a_built_in(installed: None) -> None:
    assert BACKENDS.origin("embedded") == "built-in"
    assert BACKENDS.problems == [
        "backend 'embedded' of entry point uniform_backend:X skipped: the name is taken by "
        "biasaudit.models.llamacpp:EmbeddedBackend"
    ]


def test_the_engine_runs_an_installed_backend(installed: None) -> None:
    run = evaluate("crows_pairs", "uniform:2", limit=12, progress=False)
    assert run.status == "complete" and run.model.spec == "uniform:2"
    assert run.benchmark("crows_pairs").n_samples == 12


def test_list_backends_says_where_each_comes_from(
    installed: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["list", "backends", "--json"]) == 0
    out = capsys.readouterr()
    rows = {row["name"]: row for row in json.loads(out.out)}
    assert rows["uniform"]["origin"] == "entry point"
    assert rows["uniform"]["capabilities"] == ["loglikelihood"]
    assert "name is taken" in out.err


def test_without_the_package_the_name_is_unknown() -> None:
    import importlib.metadata

    installed = importlib.metadata.entry_points(group=BACKEND_ENTRY_POINTS).names
    if "uniform" in installed:  # `make example-backend` installed the package for real
        pytest.skip("biasaudit-uniform-backend is installed in this environment")
    BACKENDS.rescan()
    with pytest.raises(UnknownNameError, match="unknown backend 'uniform'"):
        BACKENDS.check("uniform")


def test_a_broken_installed_backend_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _install(tmp_path, {"broken": "nosuchmodule_xyz:Backend"})
    monkeypatch.syspath_prepend(str(tmp_path))
    BACKENDS.rescan()
    try:
        assert main(["list", "backends", "--json"]) == 0  # listed, described, never raised
        rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)}
        assert rows["broken"]["capabilities"] == []
        assert rows["broken"]["description"].startswith("cannot be loaded from nosuchmodule_xyz")
        code = main(["run", "crows_pairs", "--model", "broken", "--limit", "2", "-q"])
        err = capsys.readouterr().err
        assert code == 2 and "Traceback" not in err
        assert "backend 'broken' of entry point nosuchmodule_xyz:Backend cannot be loaded" in err
    finally:
        monkeypatch.undo()
        BACKENDS.rescan()
