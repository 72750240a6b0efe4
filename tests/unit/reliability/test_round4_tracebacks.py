"""Issue 33 item 8, the leftover tracebacks of reliability-3 M3 (finetune) and M10 (data pin).

Each case runs the real command line in a child process (so Python's own warning and
traceback printing is what the user would see) and asserts: the exit status, exactly one line
on stderr naming the file at fault, no traceback, and that nothing already there was lost.
The cases that main had already fixed (bad training data, --lora device/target_modules, -o a
file, a garbage fetch URL, --timeout inf, ...) are tested in tests/integration/test_finetune.py
and tests/unit/core/test_data_store.py.
"""

from __future__ import annotations

import contextlib
import http.server
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.conformance import tiny_models

CLI = "import sys; from biasaudit.cli.app import main; sys.exit(main())"
EXAMPLES = [
    {
        "messages": [
            {"role": "user", "content": f"Step {i}: is this appropriate?"},
            {"role": "assistant", "content": "yes" if i % 2 else "no"},
        ]
    }
    for i in range(4)
]


def _cli(*argv: str) -> tuple[int, list[str]]:
    """(exit status, stderr lines) of `biasaudit ARGV` in a child process."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-c", CLI, *argv], env=env, capture_output=True, text=True, timeout=600
    )
    return done.returncode, done.stderr.strip().splitlines()


def _one_line(err: list[str], prefix: str, *words: str) -> None:
    assert "Traceback" not in "\n".join(err), "\n".join(err[-30:])
    assert len(err) == 1, err
    assert err[0].startswith(prefix) and all(w in err[0] for w in words), err


@contextlib.contextmanager
def _read_only(folder: Path) -> Iterator[None]:
    """`folder` made unwritable: chmod for a user; for root (who ignores modes) the immutable
    attribute; skipped where neither holds."""
    if os.geteuid() == 0:
        if subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode != 0:
            pytest.skip("root, and chattr +i is not available here")
        undo = ["chattr", "-i", str(folder)]
    else:
        folder.chmod(0o555)
        undo = ["chmod", "755", str(folder)]
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("cannot make a folder read-only here")
        yield
    finally:
        subprocess.run(undo, check=True)


# --- finetune (M3) --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_lm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("tiny") / "lm"
    return tiny_models.build_causal_lm(folder, tiny_models.real_tokenizer(), chat_template=True)


def _finetune(tiny_lm: Path, tmp_path: Path, out: Path, *extra: str) -> tuple[int, list[str]]:
    data = tmp_path / "good.jsonl"
    data.write_text("".join(json.dumps(e) + "\n" for e in EXAMPLES))
    lora = ["--lora", "max_steps=2", "--lora", "save_every=1", "--lora", "threads=1"]
    return _cli(
        "finetune", "--model", f"hf:{tiny_lm}", "--data", str(data), *lora,
        "-o", str(out), "-q", *extra,
    )  # fmt: skip


def _truncate(file: Path) -> None:
    file.write_bytes(file.read_bytes()[: file.stat().st_size // 2])


@pytest.mark.integration
@pytest.mark.parametrize("case", ["provenance-a-folder", "checkpoints-a-file", "output-read-only"])
def test_finetune_output_that_cannot_be_written_is_one_line(
    tiny_lm: Path, tmp_path: Path, case: str
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    if case == "provenance-a-folder":
        (out / "provenance.json").mkdir()
        rc, err = _finetune(tiny_lm, tmp_path, out)
        _one_line(err, "biasaudit: error:", "provenance.json: not a file")
    elif case == "checkpoints-a-file":
        (out / "checkpoints").write_text("in the way")
        rc, err = _finetune(tiny_lm, tmp_path, out)
        _one_line(err, "biasaudit: error:", "checkpoints/step-000001: cannot write the checkpoint")
        assert json.loads((out / "provenance.json").read_text())["status"] == "partial"
        assert (out / "checkpoints").read_text() == "in the way"
    else:
        with _read_only(out):
            rc, err = _finetune(tiny_lm, tmp_path, out)
        _one_line(err, "biasaudit: error:", f"{out}: cannot write there")
        assert list(out.iterdir()) == []
    assert rc == 2


@pytest.mark.integration
def test_finetune_truncated_state_pt_is_passed_over_with_one_line(
    tiny_lm: Path, tmp_path: Path
) -> None:
    """A damaged checkpoint costs its steps, not the run (it is retrained from the one before,
    to the same result): exit 0, one warning line naming the file."""
    straight = tmp_path / "straight"
    assert _finetune(tiny_lm, tmp_path, straight)[0] == 0
    out = tmp_path / "out"
    assert _finetune(tiny_lm, tmp_path, out, "--stop-after", "1") == (0, [])
    _truncate(out / "checkpoints" / "step-000001" / "state.pt")
    rc, err = _finetune(tiny_lm, tmp_path, out)
    _one_line(err, "biasaudit: warning:", "step-000001: unreadable checkpoint, passed over")
    assert "state.pt cannot be read" in err[0]
    assert rc == 0
    assert (out / "loss.csv").read_text() == (straight / "loss.csv").read_text()


@pytest.mark.integration
def test_finetune_complete_without_loss_csv_or_readable_checkpoint_is_one_line(
    tiny_lm: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    assert _finetune(tiny_lm, tmp_path, out)[0] == 0
    model = (out / "model" / "model.safetensors").read_bytes()
    (out / "loss.csv").unlink()
    for checkpoint in (out / "checkpoints").iterdir():
        _truncate(checkpoint / "state.pt")
    rc, err = _finetune(tiny_lm, tmp_path, out)
    _one_line(err, "biasaudit: warning:", "loss.csv is missing or damaged")
    assert rc == 0
    assert (out / "model" / "model.safetensors").read_bytes() == model  # the model is kept


# --- data pin -o (M10) ----------------------------------------------------------------------


@pytest.fixture
def counting_server() -> Iterator[tuple[str, list[str]]]:
    """(a URL of a small CSV, the paths requested so far)."""
    requested: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            requested.append(self.path)
            body = b"a,b\n1,2\n"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/x.csv", requested
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize(
    ("kind", "words"),
    [
        ("not-utf8", "line 1: not UTF-8"),
        ("deep", "JSON nested too deeply"),
        ("a-directory", "is a directory"),
        ("under-a-file", "is a file, not a folder; not written"),
        ("read-only-folder", "(a read-only folder); not written"),
    ],
)
def test_data_pin_bad_output_is_one_line_before_any_download(
    tmp_path: Path, counting_server: tuple[str, list[str]], kind: str, words: str
) -> None:
    url, requested = counting_server
    folder = tmp_path / "srcs"
    folder.mkdir()
    target = folder / "sources.json"
    before: bytes | None = None
    if kind == "not-utf8":
        before = b'{"a": "\xff"}'
    elif kind == "deep":
        before = b"[" * 200_000 + b"]" * 200_000
    elif kind == "a-directory":
        target.mkdir()
    elif kind == "under-a-file":
        (folder / "afile").write_text("x")
        target = folder / "afile" / "sources.json"
    else:
        before = b'{"kept.csv": {}}\n'
    if before is not None:
        target.write_bytes(before)
    argv = ["data", "pin", url, "--license", "MIT", "--citation", "c", "-o", str(target)]
    if kind == "read-only-folder":
        with _read_only(folder):
            rc, err = _cli(*argv)
    else:
        rc, err = _cli(*argv)
    assert rc == 2
    _one_line(err, "biasaudit: error:", str(target), words)
    assert requested == []  # refused before the download, not after it
    if before is not None:
        assert target.read_bytes() == before


@pytest.mark.integration
def test_a_complete_finetune_in_a_read_only_folder_is_still_reused(
    tiny_lm: Path, tmp_path: Path
) -> None:
    """The read-only check comes before training only: reading a finished fine-tune back
    needs no write (a guard for the check above, not a former traceback)."""
    out = tmp_path / "out"
    assert _finetune(tiny_lm, tmp_path, out)[0] == 0
    with _read_only(out):
        rc, err = _finetune(tiny_lm, tmp_path, out)
    assert (rc, err) == (0, [])
