"""A marker API key never reaches anything persisted, whatever path it takes.

A real HTTP server (`fake_openai`, mode ``echo_auth``) answers every generation with a text
quoting the request's Authorization header, as a debugging proxy might. The run, its cache,
its report and the process output are then searched byte by byte for the key.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI

from biasaudit.models.openai.http import MAX_ERROR_CHARS, MIN_SECRET_PREFIX, make_redactor

MARKER = "sk-BIASAUDITMARKER7f3a9e0c"


def biasaudit(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "biasaudit.cli", *args],
        capture_output=True,
        timeout=300,
        env=env,
    )


def files_holding(root: Path, needle: bytes) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and needle in p.read_bytes()]


def test_an_echoed_key_is_redacted_from_every_artefact(tmp_path: Path, data_dir: Path) -> None:
    env = {**os.environ, "OPENAI_API_KEY": MARKER, "BIASAUDIT_CACHE_DIR": str(tmp_path / "c")}
    out, cache = tmp_path / "run", tmp_path / "cache.sqlite"
    outputs: list[bytes] = []
    with FakeOpenAI("echo_auth") as server:
        done = biasaudit(
            "run", "stop", "-m", f"openai:m@{server.base_url}", "--limit", "2", "--quiet",
            "--data-dir", str(data_dir), "-o", str(out), "--cache", str(cache), env=env,
        )  # fmt: skip
        outputs += [done.stdout, done.stderr]
        assert done.returncode == 0, done.stderr.decode()
        assert server.posts, "the server was not used"
    report = biasaudit("report", str(out), "-o", str(tmp_path / "report.html"), env=env)
    outputs += [report.stdout, report.stderr]
    assert report.returncode == 0, report.stderr.decode()
    samples = (out / "samples.jsonl").read_text()
    # The answers did carry the header, redacted: the check below is not vacuous.
    assert "debug: Bearer ***" in samples
    assert (tmp_path / "report.html").is_file() and cache.is_file()
    assert files_holding(tmp_path, MARKER.encode()) == []
    assert not any(MARKER.encode() in o for o in outputs)


#: Characters of the error message before the quoted header, so that a cut after
#: MAX_ERROR_CHARS characters goes through the key, 12 characters in (audit round 3, H3).
PAD = "x" * (MAX_ERROR_CHARS - len("Bearer ") - 12)


def _json_error(auth: str) -> bytes:
    return json.dumps({"error": {"message": f"{PAD}Bearer {auth[7:]} was refused"}}).encode()


def _text_error(auth: str) -> bytes:
    return f"{PAD}{auth} was refused".encode()


@pytest.mark.parametrize("when", ["start-up", "mid-run"])
@pytest.mark.parametrize("body", [_json_error, _text_error], ids=["json", "text"])
def test_a_key_cut_by_the_error_length_limit_is_still_redacted(
    when: str, body: Callable[[str], bytes], tmp_path: Path, data_dir: Path
) -> None:
    """A 500 whose body quotes the key where the 300-character cut crosses it: no run of 8
    or more of the key's first characters reaches the run directory, the cache, the
    report or the process output."""
    env = {**os.environ, "OPENAI_API_KEY": MARKER, "BIASAUDIT_CACHE_DIR": str(tmp_path / "c")}
    out, cache = tmp_path / "run", tmp_path / "cache.sqlite"
    with FakeOpenAI() as server:
        server.error_body = body
        server.fail_after = 0 if when == "start-up" else 2  # the probe's 2 POSTs pass
        done = biasaudit(
            "run", "stop", "-m", f"openai:m@{server.base_url}", "--limit", "2", "--quiet",
            "--data-dir", str(data_dir), "-o", str(out), "--cache", str(cache),
            "-M", "max_retries=0", env=env,
        )  # fmt: skip
    outputs = [done.stdout, done.stderr]
    if when == "start-up":
        assert done.returncode == 2 and not out.exists()
        assert b"***" in done.stderr  # the quoted key was there, redacted
    else:
        assert done.returncode == 3, done.stderr.decode()
        assert "***" in (out / "samples.jsonl").read_text()
        report = biasaudit("report", str(out), "-o", str(tmp_path / "report.html"), env=env)
        outputs += [report.stdout, report.stderr]
        assert (tmp_path / "report.html").is_file()
    prefix = MARKER[:MIN_SECRET_PREFIX].encode()
    assert files_holding(tmp_path, prefix) == []
    assert not any(prefix in o for o in outputs)


def test_the_redactor_blanks_the_key_and_its_long_prefixes() -> None:
    redact = make_redactor(MARKER)
    assert redact(f"a {MARKER} b") == "a *** b"
    assert redact(f"cut: {MARKER[:8]}") == "cut: ***"  # 8 characters: blanked
    assert redact(f"cut: {MARKER[:7]}") == f"cut: {MARKER[:7]}"  # 7: too short to be the key
    assert redact(f"{MARKER[:12]}XYZ {MARKER}") == "***XYZ ***"
    assert make_redactor("short")("a short b") == "a *** b"


def _naive_redacted(text: str, secret: str) -> bool:
    """Oracle: no window of 8 characters of `text` is a substring of `secret`."""
    return not any(text[i : i + 8] in secret for i in range(len(text) - 7))


@pytest.mark.parametrize(
    "quoted",
    [
        MARKER[3:],  # without its scheme "sk-" (round 4: 23 of 26 characters leaked)
        MARKER[5:17],  # a middle run
        MARKER[-9:],  # the tail
        f"key {MARKER[3:]} was revoked",
        f"{MARKER[:10]}|{MARKER[12:24]}",  # two runs, split
        f"xx{MARKER}yy",  # inside a longer string
    ],
)
def test_any_run_of_8_characters_of_the_key_is_blanked(quoted: str) -> None:
    redacted = make_redactor(MARKER)(quoted)
    assert _naive_redacted(redacted, MARKER), redacted
    assert "***" in redacted


def test_several_secrets_and_unrelated_text() -> None:
    other = "gsk_0123456789abcdefGHIJ"
    redact = make_redactor(MARKER, other, None)
    assert redact(f"{MARKER[4:14]} and {other[2:12]}") == "*** and ***"
    # "BIASAUDIT" is 9 characters of the marker: blanked; 7 of them are not
    assert redact("here: BIASAUDIT, BIASAUD") == "here: ***, BIASAUD"


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/{key}/v1",  # the key in the path
        "http://127.0.0.1:8000/v1?auth={key}",
        "http://127.0.0.1:8000/v1?password=hunter22",
        "http://127.0.0.1:8000/v1?x={key_tail}",  # part of the key, any parameter name
    ],
)
def test_a_secret_in_any_part_of_the_url_is_refused_before_anything_is_written(
    tmp_path: Path, url: str
) -> None:
    key = "sk-" + "Zq7" * 9
    env = {**os.environ, "OPENAI_API_KEY": key}
    target = url.format(key=key, key_tail=key[5:20])
    out = tmp_path / "run"
    done = biasaudit(
        "run", "stop", "-m", f"openai:m@{target}", "--limit", "1", "-o", str(out), env=env
    )
    err = done.stderr.decode()
    assert done.returncode == 2, err
    errors = [line for line in err.splitlines() if line.startswith("biasaudit: error:")]
    assert len(errors) == 1 and "Traceback" not in err
    assert not out.exists() or files_holding(out, key[5:13].encode()) == []
    assert key[5:13] not in err and key[5:13] not in done.stdout.decode()


@pytest.mark.parametrize(
    "key",
    [
        "sk-proj-" + "a1B2" * 10,
        "gsk_" + "c3D4" * 10,
        "0123456789abcdef" * 2,  # 32 hex digits
    ],
)
def test_key_like_strings_in_the_url_are_refused_without_knowing_the_key(key: str) -> None:
    from biasaudit.errors import BackendError
    from biasaudit.models.openai import parse_target

    with pytest.raises(BackendError, match="looks like an API key"):
        parse_target(f"m@http://127.0.0.1:8000/{key}/v1")
    parse_target("Qwen2.5-0.5B-Instruct@http://127.0.0.1:8000/v1")  # a model name is fine
