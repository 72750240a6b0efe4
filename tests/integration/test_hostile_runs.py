"""Run directories that are damaged, live or partial, as every reading command sees them
(reliability audit round 3: H2, H4, M1-M4, M8, L7).

Runs are real STOP runs through the openai backend against a loopback server (`fake_openai`).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI
from fake_openai import stop_run as fake_stop_run

from biasaudit.cli.app import EXIT_INCOMPLETE, main
from biasaudit.datasets.files import read_json_lines
from biasaudit.results.io import read_results
from biasaudit.results.lock import LOCK_FILE

#: The start-up checks send 2 POSTs (a 1-token chat, and the log-prob probe's generation).
PROBE_POSTS = 2


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    code = main(argv)
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    # tiny runs are below the validity gates' minimum n: `run` notes it on stderr (exit 0)
    return code, [line for line in err if "is not measurable:" not in line]


@pytest.fixture(scope="module")
def good_run(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> Path:
    return fake_stop_run(tmp_path_factory.mktemp("good") / "run", data_dir, limit=3)


def _lines(run: Path) -> list[dict]:  # type: ignore[type-arg]
    return read_json_lines(run / "samples.jsonl")


def _set_lines(run: Path, records: list[dict]) -> None:  # type: ignore[type-arg]
    (run / "samples.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))


def _edit_results(run: Path, edit: Callable[[dict], None]) -> None:  # type: ignore[type-arg]
    results = json.loads((run / "results.json").read_text())
    edit(results)
    (run / "results.json").write_text(json.dumps(results))


def _drop_exchange(run: Path) -> None:
    records = _lines(run)
    records[0]["exchanges"] = records[0]["exchanges"][:-1]
    _set_lines(run, records)


def _edit_answer(run: Path) -> None:
    records = _lines(run)
    records[0]["exchanges"][0]["response"]["text"] = "No"
    records[0]["exchanges"][1]["response"]["text"] = "No"
    _set_lines(run, records)


def _other_run(run: Path) -> None:
    """The samples.jsonl of a longer run of the same benchmark (a merge killed between its
    two writes leaves such a pair)."""
    records = _lines(run)
    _set_lines(run, [*records, {**records[0], "sample_id": "stop-999"}])


DAMAGE: dict[str, tuple[Callable[[Path], None], str]] = {
    "empty samples": (lambda r: (r / "samples.jsonl").write_text(""), "0 stop samples"),
    "line dropped": (lambda r: _set_lines(r, _lines(r)[:-1]), "computed from 3"),
    "duplicate id": (lambda r: _set_lines(r, [*_lines(r), _lines(r)[0]]), "appears twice"),
    "foreign benchmark": (
        lambda r: _set_lines(r, [*_lines(r), {**_lines(r)[0], "benchmark": "crows_pairs"}]),
        "crows_pairs",
    ),
    "dropped exchange": (_drop_exchange, "exchanges_hash differs"),
    "edited answer": (_edit_answer, "exchanges_hash differs"),
    "another run's samples": (_other_run, "computed from 3"),
    "impossible option": (
        lambda r: _edit_results(
            r, lambda d: d["benchmarks"][0]["options"].update(severity=["extreme"])
        ),
        "severity",
    ),
    "negative n_samples": (
        lambda r: _edit_results(r, lambda d: d["benchmarks"][0].update(n_samples=-1)),
        "computed from -1",
    ),
    "future schema version": (
        lambda r: _edit_results(r, lambda d: d.update(schema_version="99.0")),
        "schema version '99.0'",
    ),
}


def _argv(command: str, run: Path, good: Path, tmp: Path) -> list[str]:
    return {
        "score": ["score", str(run)],
        "report": ["report", str(run), "-o", str(tmp / "r.html")],
        "compare": ["compare", str(good), str(run)],
        "export": ["export", str(run), "-o", str(tmp / "export")],
    }[command]


@pytest.mark.parametrize("command", ["score", "report", "compare", "export"])
@pytest.mark.parametrize("damage", DAMAGE, ids=list(DAMAGE))
def test_every_reader_refuses_samples_that_do_not_match_results(
    command: str,
    damage: str,
    good_run: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    run = tmp_path / "run"
    shutil.copytree(good_run, run)
    edit, message = DAMAGE[damage]
    edit(run)
    before = {p.name: p.read_bytes() for p in run.iterdir()}
    code, err = run_cli(_argv(command, run, good_run, tmp_path), capsys)
    assert code == 2 and len(err) == 1 and message in err[0], err
    assert {p.name: p.read_bytes() for p in run.iterdir()} == before
    assert not (tmp_path / "r.html").exists() and not (tmp_path / "export").exists()


def test_the_undamaged_run_passes_every_reader(
    good_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The control: the checks above refuse the damage, not the run."""
    run = tmp_path / "run"
    shutil.copytree(good_run, run)
    for command in ("score", "report", "compare", "export"):
        assert run_cli(_argv(command, run, good_run, tmp_path), capsys) == (0, []), command


def make_partial_run(out: Path, data_dir: Path, good_run: Path) -> Path:
    """1 of 3 samples lost to request errors (every request of the first progression fails:
    each carries its first sentence): a partial run."""
    first = _lines(good_run)[0]["exchanges"][0]["request"]["messages"][-1]["content"]
    with FakeOpenAI() as server:
        server.fail_if = lambda body: any(
            first in str(m.get("content")) for m in body.get("messages", [])
        )
        code = main(
            ["run", "stop", "-m", f"openai:m@{server.base_url}", "-M", "max_retries=0",
             "--limit", "3", "-q", "--data-dir", str(data_dir), "-o", str(out), "--no-cache"]
        )  # fmt: skip
    assert code == EXIT_INCOMPLETE
    return out


@pytest.fixture(scope="module")
def partial_run(tmp_path_factory: pytest.TempPathFactory, data_dir: Path, good_run: Path) -> Path:
    out = make_partial_run(tmp_path_factory.mktemp("partial") / "run", data_dir, good_run)
    assert read_results(out).status == "partial"
    assert read_results(out).benchmarks[0].n_request_errors == 1
    return out


def test_compare_and_export_say_an_input_is_partial(
    good_run: Path, partial_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for extra in ([], ["--json"], ["--csv"]):
        code = main(["compare", str(good_run), str(partial_run), *extra])
        captured = capsys.readouterr()
        err = [line for line in captured.err.splitlines() if line.strip()]
        assert code == EXIT_INCOMPLETE, extra
        assert len(err) == 1 and f"{partial_run} is a partial run" in err[0]
        if extra == ["--json"]:
            rows = json.loads(captured.out)
            assert {(r["baseline_status"], r["other_status"]) for r in rows} == {
                ("complete", "partial")
            }
    code, err = run_cli(["export", str(partial_run), "-o", str(tmp_path / "e")], capsys)
    assert code == EXIT_INCOMPLETE and len(err) == 1 and "is a partial run" in err[0]
    import pandas as pd

    for name in ("metrics", "samples"):
        frame = pd.read_csv(tmp_path / "e" / f"{name}.csv")
        assert set(frame["run_status"]) == {"partial"}


@pytest.mark.parametrize("target", ["results.json", "samples.jsonl", "run.json", "."])
def test_report_never_writes_over_the_run(
    target: str, good_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run"
    shutil.copytree(good_run, run)
    before = {p.name: p.read_bytes() for p in run.iterdir()}
    code, err = run_cli(["report", str(run), "-o", str(run / target)], capsys)
    assert code == 2 and len(err) == 1, err
    assert {p.name: p.read_bytes() for p in run.iterdir()} == before
    # another run's data file is not an output either
    code, err = run_cli(["report", str(good_run), "-o", str(run / target)], capsys)
    assert code == 2 and len(err) == 1, err
    assert {p.name: p.read_bytes() for p in run.iterdir()} == before


def _live_lock() -> str:
    return json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "started": "now"})


def test_a_live_run_holds_its_folder(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """score, a second run, report -o and merge -o into a running run's folder are refused;
    the run then finishes complete, with every sample, and releases the lock."""
    out = tmp_path / "run"
    argv = ["run", "stop", "-m", "PLACEHOLDER", "--limit", "3", "-q",
            "--data-dir", str(data_dir), "-o", str(out), "--no-cache"]  # fmt: skip
    with FakeOpenAI() as server:
        argv[argv.index("PLACEHOLDER")] = f"openai:m@{server.base_url}"
        server.hold_after = PROBE_POSTS + 6  # hold the run after two rounds of requests
        process = subprocess.Popen([sys.executable, "-m", "biasaudit.cli", *argv])
        try:
            deadline = time.monotonic() + 120
            while server.n_posts <= PROBE_POSTS + 6:
                assert time.monotonic() < deadline and process.poll() is None
                time.sleep(0.05)
            holder = json.loads((out / LOCK_FILE).read_text())
            assert holder["pid"] == process.pid and holder["host"] == socket.gethostname()
            for refused in (
                ["score", str(out)],
                [*argv, "--resume"],
                ["report", str(out), "-o", str(out / "report.html")],
                ["export", str(out)],
                ["merge", str(tmp_path / "a"), str(tmp_path / "b"), "-o", str(out)],
                ["merge", str(out), str(tmp_path / "b"), "-o", str(tmp_path / "m")],
            ):
                code, err = run_cli(refused, capsys)
                assert code == 2 and len(err) == 1, (refused, err)
                assert f"being written by a biasaudit run (process {process.pid}" in err[0]
        finally:
            server.hold_after = None
            code = process.wait(timeout=300)
    assert code == 0 and read_results(out).status == "complete"
    assert len(_lines(out)) == read_results(out).benchmarks[0].n_samples == 3
    assert not (out / LOCK_FILE).exists()


def test_a_stale_lock_is_taken_over_and_a_foreign_one_is_not(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    out = tmp_path / "run"
    out.mkdir()
    (out / LOCK_FILE).write_text(json.dumps({"pid": dead.pid, "host": socket.gethostname()}))
    with FakeOpenAI() as server:
        argv = ["run", "stop", "-m", f"openai:m@{server.base_url}", "--limit", "2", "-q",
                "--data-dir", str(data_dir), "-o", str(out), "--no-cache"]  # fmt: skip
        assert run_cli(argv, capsys) == (0, [])
        assert read_results(out).status == "complete" and not (out / LOCK_FILE).exists()
        (out / LOCK_FILE).write_text(json.dumps({"pid": 1, "host": "elsewhere.example"}))
        code, err = run_cli([*argv, "--overwrite"], capsys)
    assert code == 2 and len(err) == 1
    assert "process 1 on elsewhere.example" in err[0] and str(out / LOCK_FILE) in err[0]
