"""A failed audit never looks complete; nothing is written before the inputs are valid.

Runs are real STOP runs through the openai backend against a loopback server
(`fake_openai`) that can be broken after its start-up checks (every later POST answers 500),
as a server that dies mid-run would be.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI
from fake_openai import stop_run as fake_stop_run

from biasaudit.cli.app import EXIT_INCOMPLETE, main
from biasaudit.report import build_html, load_runs
from biasaudit.results.io import iter_samples, read_results
from biasaudit.results.status import judge

#: The start-up checks send 2 POSTs (a 1-token chat, and the log-prob probe's generation).
PROBE_POSTS = 2


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    code = main(argv)
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    # A 3-sample run is below the validity gates' minimum n: `run` says so on stderr (exit 0
    # without --strict); those notices are not the status lines these tests are about.
    return code, [line for line in err if "is not measurable:" not in line]


def stop_argv(url: str, out: Path, data_dir: Path, *extra: str) -> list[str]:
    return [
        "run", "stop", "-m", f"openai:m@{url}", "-M", "max_retries=0", "--limit", "3", "-q",
        "--data-dir", str(data_dir), "-o", str(out), "--no-cache", *extra,
    ]  # fmt: skip


def test_a_server_broken_mid_run_fails_the_run_and_resume_completes_it(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    with FakeOpenAI() as server:
        server.fail_after = PROBE_POSTS
        code, err = run_cli(stop_argv(server.base_url, out, data_dir), capsys)
        assert code == EXIT_INCOMPLETE
        assert len(err) == 1 and "failed run" in err[0] and "--resume" in err[0]
        assert "3 of 3 samples lost to request errors" in err[0]
        failed = read_results(out)
        assert failed.status == "failed" and failed.benchmarks[0].n_request_errors == 3
        server.fail_after = None  # the server comes back
        code, err = run_cli([*stop_argv(server.base_url, out, data_dir), "--resume"], capsys)
    assert code == 0 and err == []
    healed = read_results(out)
    assert healed.status == "complete" and healed.status_reason is None
    assert healed.benchmarks[0].n_request_errors == 0 == healed.benchmarks[0].n_excluded


def test_some_samples_lost_is_partial_unless_the_threshold_allows_it(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 3 STOP progressions x 6 turns, in rounds: breaking after the first round's 3 requests
    # leaves every sample with a failed request... so break after 2 rounds (6 requests) and
    # see samples excluded while the run as a whole answered some requests.
    with FakeOpenAI() as server:
        server.fail_after = PROBE_POSTS + 7
        code, err = run_cli(stop_argv(server.base_url, tmp_path / "a", data_dir), capsys)
        lost = read_results(tmp_path / "a").benchmarks[0].n_request_errors
        server.n_posts = 0
        allowed = ["--max-failed-samples", str(lost)]
        code_ok, err_ok = run_cli(
            stop_argv(server.base_url, tmp_path / "b", data_dir, *allowed), capsys
        )
    assert lost >= 1
    assert code == EXIT_INCOMPLETE and len(err) == 1
    assert read_results(tmp_path / "a").status in ("partial", "failed")
    assert code_ok == 0 and err_ok == []
    assert read_results(tmp_path / "b").status == "complete"


def test_an_unfinished_multi_benchmark_run_is_partial_and_the_report_says_so(
    tmp_path: Path, data_dir: Path
) -> None:
    out = fake_stop_run(tmp_path / "run", data_dir, limit=2)
    run, records = read_results(out), list(iter_samples(out))
    # What results.json holds after `run calm stop` was killed while calm was running.
    partial = judge(run, records, planned=["stop", "calm"])
    assert partial.status == "partial"
    assert partial.status_reason == "not finished: calm (finished: stop)"
    assert partial.benchmarks_planned == ["stop", "calm"]
    (out / "results.json").write_text(partial.model_dump_json())
    page = build_html(load_runs([out]))
    assert 'class="banner"' in page and "partial run." in page
    assert 'class="banner"' not in build_html(
        load_runs([fake_stop_run(tmp_path / "ok", data_dir, 2)])
    )


SECRET = "sk-NEVERONDISK0123456789"
BEFORE_WRITING = {
    "api_key_arg": (["-M", f"api_key={SECRET}"], "secret"),
    "token_in_extra_body": (["-M", f'extra_body={{"auth_token": "{SECRET}"}}'], "secret"),
    "unknown_backend": (["-m", "embeded"], "did you mean"),
    "llama_arg_typo": (["-m", "embedded", "-M", "n_thread=1"], "did you mean 'n_threads'"),
    "llama_arg_not_int": (["-m", "embedded", "-M", "n_threads=abc"], "n_threads"),
    "llama_arg_list": (["-m", "embedded", "-M", "n_ctx=[1]"], "n_ctx"),
    "llama_arg_fraction": (["-m", "embedded", "-M", "n_threads=1.9"], "n_threads"),
    "llama_arg_negative": (["-m", "embedded", "-M", "n_ctx=-5"], "n_ctx"),
    "llama_bool_garbage": (["-m", "embedded", "-M", "transcript=maybe"], "transcript"),
    "openai_arg_typo": (["-M", "concurency=4"], "did you mean 'concurrency'"),
    "hf_arg_typo": (["-m", "hf:some/model", "-M", "dtyp=float32"], "did you mean 'dtype'"),
    "limit_negative": (["--limit", "-1"], "--limit must be at least 1"),
    "limit_zero": (["--limit", "0"], "--limit must be at least 1"),
    "batch_size_zero": (["--batch-size", "0"], "--batch-size must be at least 1"),
    "batch_size_negative": (["--batch-size", "-1"], "--batch-size must be at least 1"),
    "shard_out_of_range": (["--shard", "3/2"], "shard"),
    "bad_option": (["-O", "max_tokenz=5"], "did you mean"),
    # issue 33: other key formats, and a key inside a longer value, whatever the name
    "groq_key_value": (["-M", 'extra_body={"x": "gsk_0123456789abcdefGHIJKL"}'], "secret"),
    "hex_key_value": (["-M", 'extra_body={"x": "0123456789abcdef0123456789abcdef"}'], "secret"),
    "key_inside_a_string": (["-M", f'extra_body={{"note": "use {SECRET} here"}}'], "secret"),
}


def test_a_commit_hash_is_no_secret() -> None:
    from biasaudit.models.spec import _looks_secret

    assert not _looks_secret("0123456789abcdef0123456789abcdef01234567")  # 40: a git commit
    assert _looks_secret("0123456789abcdef0123456789abcdef")  # 32: a key's form


@pytest.mark.parametrize("extra, message", BEFORE_WRITING.values(), ids=BEFORE_WRITING.keys())
def test_bad_inputs_are_refused_before_anything_is_written(
    extra: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    model = [] if "-m" in extra else ["-m", "openai:m@http://127.0.0.1:9/v1"]
    code, err = run_cli(["run", "stop", *model, *extra, "-q", "-o", str(out)], capsys)
    assert code == 2 and len(err) == 1, err
    assert message in err[0]
    assert SECRET not in err[0]
    assert not out.exists()


@pytest.mark.parametrize(
    "url", ["http://user:" + SECRET + "@127.0.0.1:9/v1", "http://127.0.0.1:9/v1?api_key=" + SECRET]
)
def test_a_key_in_the_url_never_reaches_disk(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    code, err = run_cli(["run", "stop", "-m", f"openai:m@{url}", "-q", "-o", str(out)], capsys)
    assert code == 2 and "environment variable" in err[0] and SECRET not in err[0]
    assert not out.exists()


def test_llama_booleans_are_parsed_as_booleans() -> None:
    from biasaudit.models.llamacpp import llama_arguments

    assert llama_arguments({"transcript": "no"}) == {"transcript": False}
    assert llama_arguments({"transcript": "off"}) == {"transcript": False}
    assert llama_arguments({"transcript": "true"}) == {"transcript": True}
    assert llama_arguments({"transcript": 1}) == {"transcript": True}


def test_overwrite_removes_the_old_result_before_the_new_run_starts(
    tmp_path: Path, data_dir: Path
) -> None:
    out = fake_stop_run(tmp_path / "run", data_dir, limit=3)
    assert read_results(out).limit == 3
    with FakeOpenAI(delay_s=1.0) as slow:
        argv = stop_argv(slow.base_url, out, data_dir, "--overwrite")
        argv[argv.index("3")] = "2"  # --limit 2
        process = subprocess.Popen(
            [sys.executable, "-m", "biasaudit.cli", *argv], env=dict(os.environ)
        )
        deadline = time.monotonic() + 120
        while slow.n_posts <= PROBE_POSTS:  # the new run is sending its requests
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    # Killed mid-run: no stale complete-looking result next to the new run.json.
    assert json.loads((out / "run.json").read_text())["limit"] == 2
    assert not (out / "results.json").exists() and not (out / "samples.jsonl").exists()


def _drop_last(path: Path) -> None:
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:-1]))


def _duplicate_first(path: Path) -> None:
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join([*lines, lines[0]]))


def _foreign_benchmark(path: Path) -> None:
    lines = path.read_text().splitlines(keepends=True)
    record = json.loads(lines[0])
    record["benchmark"] = "crows_pairs_x"
    path.write_text("".join([*lines, json.dumps(record) + "\n"]))


def _replace_sample(path: Path) -> None:
    lines = path.read_text().splitlines(keepends=True)
    record = json.loads(lines[0])
    record["sample_hash"] = "0" * 64
    path.write_text("".join([json.dumps(record) + "\n", *lines[1:]]))


SCORE_MISMATCH = {
    "empty": (lambda p: p.write_text(""), "0 stop samples"),
    "line_dropped": (_drop_last, "computed from 3"),
    "duplicate": (_duplicate_first, "appears twice"),
    "unknown_benchmark": (_foreign_benchmark, "crows_pairs_x"),
    "other_sample": (_replace_sample, "samples_hash differs"),
}


@pytest.mark.parametrize("damage, message", SCORE_MISMATCH.values(), ids=SCORE_MISMATCH.keys())
def test_score_refuses_samples_that_do_not_match_results(
    damage,
    message: str,
    tmp_path: Path,
    data_dir: Path,
    capsys: pytest.CaptureFixture[str],  # type: ignore[no-untyped-def]
) -> None:
    out = fake_stop_run(tmp_path / "run", data_dir, limit=3)
    damage(out / "samples.jsonl")
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    code, err = run_cli(["score", str(out)], capsys)
    assert code == 2 and len(err) == 1 and message in err[0], err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
