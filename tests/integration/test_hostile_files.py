"""Hostile files given to the CLI: one line on stderr, exit 2, no traceback, nothing written.

The cases are the ones of the reliability audit (../shared/audits/reliability.md, 4d, 4f, 4g,
4h) that gave tracebacks: malformed run.json on --resume, garbage replay files, undecodable
run files given to `score`, and damaged cache files.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from fake_openai import stop_run

from biasaudit.cli.app import main

DEEP = "[" * 200_000 + "]" * 200_000


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> Path:
    """A real 2-sample STOP run over a loopback server, to damage copies of."""
    return stop_run(tmp_path_factory.mktemp("ref") / "run", data_dir, limit=2)


def one_line_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(argv)
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2, err
    assert len(lines) == 1 and lines[0].startswith("biasaudit: error: "), err
    return lines[0]


def replay_run(reference_run: Path, out: Path, *extra: str) -> list[str]:
    """argv of a 2-sample STOP run replaying the reference run into `out`."""
    replay = f"replay:{reference_run / 'samples.jsonl'}"
    return ["run", "stop", "-m", replay, "--limit", "2", "-q", "-o", str(out), *extra]


RUN_JSON = {
    "truncated": b'{"benchmarks": ["stop"], "mod',
    "empty": b"",
    "list": b"[1]",
    "string": b'"stop"',
    "number": b"42",
    "bad_utf8": b'{"benchmarks": ["st\xffop"]}',
    "deep": DEEP.encode(),
}


@pytest.mark.parametrize("content", RUN_JSON.values(), ids=RUN_JSON.keys())
def test_resume_with_a_malformed_run_json(
    content: bytes, reference_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run"
    shutil.copytree(reference_run, run)
    (run / "run.json").write_bytes(content)
    line = one_line_error(replay_run(reference_run, run, "--resume", "--no-cache"), capsys)
    assert "run.json" in line


def test_resume_with_run_json_a_directory(
    reference_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run"
    shutil.copytree(reference_run, run)
    (run / "run.json").unlink()
    (run / "run.json").mkdir()
    line = one_line_error(replay_run(reference_run, run, "--resume", "--no-cache"), capsys)
    assert "run.json" in line


REPLAY = {
    "json_list": b"[1, 2]\n",
    "json_number": b"42\n",
    "json_string": b'"x"\n',
    "bad_utf8": b'{"request": {"kind": "generate", "prompt": "\xff"}, "response": {}}\n',
    "latin1": '{"request": "caf\u00e9"}\n'.encode("latin-1"),
    "deep": DEEP.encode() + b"\n",
    "truncated": b'{"request": {"kind": "gen',
    "html": b"<html><body>nginx</body></html>\n",
    "missing_response": b'{"request": {"kind": "generate", "prompt": "x"}}\n',
    "bad_kind": (
        b'{"request": {"kind": "dance", "prompt": "x"}, "response": {"kind": "generate"}}\n'
    ),
    "exchanges_not_list": b'{"exchanges": {"a": 1}}\n',
    "exchange_not_object": b'{"exchanges": [1]}\n',
    "prompt_and_messages": (
        b'{"request": {"kind": "generate", "prompt": "x", "messages": [{"role": "user", '
        b'"content": "y"}]}, "response": {"kind": "generate", "text": "z"}}\n'
    ),
}


@pytest.mark.parametrize("content", REPLAY.values(), ids=REPLAY.keys())
def test_garbage_replay_files(
    content: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replay = tmp_path / "replay.jsonl"
    replay.write_bytes(b"\n" + content)
    out = tmp_path / "out"
    line = one_line_error(
        [
            "run",
            "stop",
            "-m",
            f"replay:{replay}",
            "--limit",
            "1",
            "-q",
            "-o",
            str(out),
            "--no-cache",
        ],
        capsys,
    )
    assert f"{replay}:2" in line or str(replay) in line
    assert not out.exists()  # not even a run.json: the corrected command needs no flag (L1)


def _bad_utf8_samples(run: Path) -> None:
    lines = (run / "samples.jsonl").read_bytes().splitlines()
    lines[1] = lines[1].replace(b'"stop"', b'"st\xffop"', 1)
    (run / "samples.jsonl").write_bytes(b"\n".join(lines) + b"\n")


def _random_results(run: Path) -> None:
    (run / "results.json").write_bytes(bytes(range(256)) * 10)


def _deep_results(run: Path) -> None:
    (run / "results.json").write_text(DEEP)


def _deep_samples(run: Path) -> None:
    (run / "samples.jsonl").write_text(DEEP + "\n")


SCORE: dict[str, Callable[[Path], None]] = {
    "bad_utf8_samples": _bad_utf8_samples,
    "random_bytes_results": _random_results,
    "deep_results": _deep_results,
    "deep_samples": _deep_samples,
}


@pytest.mark.parametrize("damage", SCORE.values(), ids=SCORE.keys())
def test_score_on_undecodable_run_files(
    damage: Callable[[Path], None],
    reference_run: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    run = tmp_path / "run"
    shutil.copytree(reference_run, run)
    damage(run)
    before = {p.name: p.read_bytes() for p in run.iterdir()}
    one_line_error(["score", str(run)], capsys)
    assert {p.name: p.read_bytes() for p in run.iterdir()} == before


CACHE: dict[str, Callable[[Path], None]] = {
    "random_bytes": lambda p: p.write_bytes(bytes(range(256)) * 400),
    "directory": lambda p: p.mkdir(),
    "text_file": lambda p: p.write_text(json.dumps({"not": "sqlite"})),
}


@pytest.mark.parametrize("damage", CACHE.values(), ids=CACHE.keys())
def test_run_with_a_damaged_cache_file(
    damage: Callable[[Path], None],
    reference_run: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cache = tmp_path / "cache.sqlite"
    damage(cache)
    out = tmp_path / "o"
    line = one_line_error(replay_run(reference_run, out, "--cache", str(cache)), capsys)
    assert str(cache) in line and "move it aside" in line
    assert not out.exists()  # a failed start leaves nothing behind (L1)
    assert main(replay_run(reference_run, out, "--no-cache")) == 0  # the corrected command
