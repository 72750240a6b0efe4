"""Command-line refusals and a failed start that leaves nothing behind (reliability audit
round 3: M7, M8, L1, L6, L7)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI

from biasaudit.cli.app import main

MARKER = "sk-BIASAUDITMARKER7f3a9e0c"
DEAD = "openai:m@http://127.0.0.1:9/v1"  # nothing listens: only reached if the checks pass

#: argv after `run`, the words the one-line error must hold
REFUSED: dict[str, tuple[list[str], str]] = {
    "key as api_key_env's value": (["stop", "-M", f"api_key_env={MARKER}"], "looks like a secret"),
    "key deep in extra_body": (
        ["stop", "-M", f'extra_body={{"meta": {{"note": ["{MARKER}"]}}}}'],
        "extra_body.meta.note.0 holds what looks like a secret",
    ),
    "bearer header value": (["stop", "-M", 'extra_body={"x": "Bearer abcdefghij"}'], "secret"),
    "a benchmark named twice": (["stop", "stop"], "named twice: stop"),
    "--resume with --overwrite": (["stop", "--resume", "--overwrite"], "contradict"),
    "temperature inf": (["stop", "-O", "temperature=inf"], "'temperature' for stop: must be"),
    "temperature -inf": (["stop", "-O", "temperature=-inf"], "temperature"),
    "timeout nan": (["stop", "-M", "timeout=NaN"], "'timeout' for the openai backend"),
    "severity outside its values": (["stop", "-O", "severity=extreme"], "severity"),
}


@pytest.mark.parametrize("argv, words", REFUSED.values(), ids=REFUSED.keys())
def test_refused_before_anything_is_written(
    argv: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    code = main(["run", *argv, "-m", DEAD, "--limit", "1", "-q", "-o", str(out)])
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert code == 2 and len(err) == 1 and words in err[0], err
    assert MARKER[:8] not in err[0]
    assert not out.exists()


def test_the_value_of_a_secret_variable_is_refused_as_an_argument(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A key without a known form is still recognised: it is the value of a *_KEY variable."""
    monkeypatch.setenv("MY_SERVICE_KEY", "plain-words-secret-42")
    out = tmp_path / "out"
    argv = ["run", "stop", "-m", DEAD, "-M", 'extra_body={"user": "plain-words-secret-42"}']
    code = main([*argv, "--limit", "1", "-q", "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and "extra_body.user holds what looks like a secret" in err
    assert "plain-words-secret-42" not in err and not out.exists()


def test_a_failed_start_leaves_nothing_and_the_corrected_command_runs(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unreachable server: one line, no output directory (it used to leave run.json, so
    the corrected command failed with 'already holds a run'); an existing folder is kept."""
    out, kept = tmp_path / "out", tmp_path / "kept"
    kept.mkdir()
    for target in (out, kept):
        argv = ["run", "stop", "-m", DEAD, "--limit", "1", "-q", "--data-dir", str(data_dir)]
        code = main([*argv, "-o", str(target), "--no-cache", "-M", "startup_timeout=5"])
        err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
        assert code == 2 and len(err) == 1 and "cannot reach" in err[0], err
    assert not out.exists() and kept.is_dir() and list(kept.iterdir()) == []
    with FakeOpenAI() as server:
        argv = ["run", "stop", "-m", f"openai:m@{server.base_url}", "--limit", "1", "-q"]
        assert main([*argv, "--data-dir", str(data_dir), "-o", str(out), "--no-cache"]) == 0
    assert (out / "results.json").is_file() and (out / "run.json").is_file()


@pytest.mark.parametrize("argv", [["schema"], ["list", "benchmarks"]], ids=["schema", "list"])
def test_a_closed_pipe_ends_the_command_quietly(argv: list[str]) -> None:
    """`biasaudit ... | head`: the reader is gone before the first write (its end of the
    pipe is closed before the process starts), so every write fails with EPIPE."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "biasaudit.cli", *argv],
            stdout=write_end, stderr=subprocess.PIPE, timeout=120,
        )  # fmt: skip
    finally:
        os.close(write_end)
    assert done.stderr == b"" and done.returncode == 141


def test_a_broken_pipe_elsewhere_is_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a closed stdout ends quietly: a pipe to another process breaking (with stdout
    fine) is an error that keeps its traceback. The fault is injected into a command (as the
    browser's DevTools pipe breaking would raise it); stdout is pytest's capture."""
    import biasaudit.cli.app as cli

    def broken(args: object) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(cli, "cmd_schema", broken)
    with pytest.raises(BrokenPipeError):
        cli.main(["schema"])
