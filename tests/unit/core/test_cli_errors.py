"""User mistakes give one line on stderr and exit status 2, never a traceback."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def biasaudit(*args: str, env_data_dir: Path | None = None) -> subprocess.CompletedProcess[str]:
    import os

    env = dict(os.environ)
    if env_data_dir is not None:
        env["BIASAUDIT_DATA_DIR"] = str(env_data_dir)
    return subprocess.run(
        [sys.executable, "-m", "biasaudit.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def assert_one_line_error(result: subprocess.CompletedProcess[str], pattern: str) -> None:
    import re

    assert result.returncode == 2, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("biasaudit: error: ")
    assert re.search(pattern, lines[0]), lines[0]
    assert "Traceback" not in result.stderr


def test_unknown_benchmark() -> None:
    assert_one_line_error(biasaudit("run", "stpo", "--quiet"), "unknown benchmark 'stpo'.*'stop'")


def test_unknown_backend(data_dir: Path) -> None:
    result = biasaudit("run", "stop", "--model", "embeded", "--data-dir", str(data_dir))
    assert_one_line_error(result, "unknown backend 'embeded'.*did you mean 'embedded'")


def test_unknown_reproduction() -> None:
    assert_one_line_error(
        biasaudit("reproduce", "stoop"), "unknown benchmark 'stoop'; did you mean 'stop'"
    )


def test_missing_data_dir(tmp_path: Path) -> None:
    result = biasaudit("validate", "stop", "--data-dir", str(tmp_path / "missing"))
    assert_one_line_error(result, "data dir .* does not exist")


def test_missing_data_file(tmp_path: Path) -> None:
    result = biasaudit("validate", "stop", "--data-dir", str(tmp_path))
    assert_one_line_error(result, r"stop/STOP-full\.json: not found in data dir")


def test_checksum_mismatch(tmp_path: Path, data_dir: Path) -> None:
    shutil.copytree(data_dir / "stop", tmp_path / "stop")
    with (tmp_path / "stop" / "STOP-full.json").open("a") as handle:
        handle.write(" ")
    result = biasaudit("validate", "stop", "--data-dir", str(tmp_path))
    assert_one_line_error(result, "sha256 mismatch")


def test_bad_option(data_dir: Path) -> None:
    result = biasaudit("run", "stop", "-O", "bogus_option=1", "--data-dir", str(data_dir))
    assert_one_line_error(result, "unknown option 'bogus_option' for stop")


def test_bad_shard(data_dir: Path) -> None:
    result = biasaudit("run", "stop", "--shard", "3/2", "--data-dir", str(data_dir))
    assert_one_line_error(result, "--shard '3/2'")


def test_score_on_a_directory_without_a_run(tmp_path: Path) -> None:
    assert_one_line_error(biasaudit("score", str(tmp_path)), "no results.json")


def test_list_backends_json() -> None:
    import json

    result = biasaudit("list", "backends", "--json")
    assert result.returncode == 0, result.stderr
    by_name = {b["name"]: b for b in json.loads(result.stdout)}
    assert "generate" in by_name["embedded"]["capabilities"]
    assert "pseudo_loglikelihood" in by_name["hf"]["capabilities"]


@pytest.mark.parametrize("what", ["benchmarks", "backends"])
def test_list_text(what: str) -> None:
    result = biasaudit("list", what)
    assert result.returncode == 0, result.stderr
    assert "embedded" in result.stdout or "stop" in result.stdout


def test_a_benchmark_named_twice_is_refused(data_dir: Path, tmp_path: Path) -> None:
    result = biasaudit(
        "run", "stop", "stop", "-m", "embedded", "--data-dir", str(data_dir),
        "-o", str(tmp_path / "out"), "--quiet",
    )  # fmt: skip
    assert_one_line_error(result, "benchmark\\(s\\) named twice: stop")
    assert not (tmp_path / "out").exists()


def test_a_downstream_task_listed_twice_is_refused(data_dir: Path, tmp_path: Path) -> None:
    result = biasaudit(
        "run", "stop_downstream", "-O", 'tasks=["crows_pairs","crows_pairs"]',
        "-m", "embedded", "--data-dir", str(data_dir), "-o", str(tmp_path / "o"), "--quiet",
    )  # fmt: skip
    assert_one_line_error(result, "task\\(s\\) listed twice: crows_pairs")
    empty = biasaudit(
        "run", "stop_downstream", "-O", "tasks=[]", "-m", "embedded",
        "--data-dir", str(data_dir), "-o", str(tmp_path / "o"), "--quiet",
    )  # fmt: skip
    assert_one_line_error(empty, "at least one task")
