"""A fine-tune killed at every write step of a checkpoint resumes to the same bytes.

Each case runs `finetune` in a child process that dies with ``os._exit`` (no cleanup, no
``finally``: what a ``kill -9`` leaves) at one point of writing the checkpoint of step 2, then
reruns it in this process to the end. The oracle is an uninterrupted run with the same seed:
the adapter is byte-identical and the losses equal, whatever the kill left on disk.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests.conformance import tiny_models

from biasaudit.finetune import LoraSettings, finetune

pytestmark = pytest.mark.integration

EXAMPLES = [
    [
        {"role": "user", "content": f"Step {i}: is this appropriate?"},
        {"role": "assistant", "content": "yes" if i % 2 else "no"},
    ]
    for i in range(6)
]
SETTINGS = LoraSettings(max_steps=4, batch_size=2, save_every=2, seed=11)

# The child: patches the writers that `_save_checkpoint` calls so that the process dies at the
# named point of the FIRST checkpoint. 'adapter-half' writes half of the adapter file first.
CHILD = r"""
import os, sys, pathlib, json
import torch, safetensors.torch
from biasaudit.finetune import LoraSettings, finetune

where, base, out, examples, settings = sys.argv[1:6]
real_save_file, real_torch_save, real_replace = (
    safetensors.torch.save_file, torch.save, pathlib.Path.replace)

def die():
    os._exit(137)

def save_file(state, path, *a, **k):
    if where == "adapter-half":
        real_save_file(state, path, *a, **k)
        data = pathlib.Path(path).read_bytes()
        pathlib.Path(path).write_bytes(data[: len(data) // 2])
        die()
    real_save_file(state, path, *a, **k)
    if where == "after-adapter":
        die()

def torch_save(obj, path, *a, **k):
    if isinstance(obj, dict) and "optimizer" in obj:
        if where == "state-half":
            real_torch_save(obj, path, *a, **k)
            data = pathlib.Path(path).read_bytes()
            pathlib.Path(path).write_bytes(data[: len(data) // 3])
            die()
        real_torch_save(obj, path, *a, **k)
        if where == "before-rename":
            die()
        return
    real_torch_save(obj, path, *a, **k)

def replace(self, target):
    result = real_replace(self, target)
    if where == "after-rename" and self.name.endswith(".tmp") and "step-" in self.name:
        die()
    return result

safetensors.torch.save_file, torch.save, pathlib.Path.replace = save_file, torch_save, replace
finetune(base, json.loads(examples), out, LoraSettings.model_validate_json(settings),
         progress=False)
os._exit(0)
"""


@pytest.fixture(scope="module")
def tiny_lm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("tiny") / "lm"
    return tiny_models.build_causal_lm(folder, tiny_models.real_tokenizer(), chat_template=True)


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize(
    "where", ["adapter-half", "after-adapter", "state-half", "before-rename", "after-rename"]
)
def test_killed_at_each_checkpoint_write_step_resumes(
    tiny_lm: Path, tmp_path: Path, where: str
) -> None:
    import json

    spec = f"hf:{tiny_lm}"
    straight = finetune(spec, EXAMPLES, tmp_path / "straight", SETTINGS, progress=False)
    out = tmp_path / "killed"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    child = subprocess.run(
        [sys.executable, "-c", CHILD, where, spec, str(out), json.dumps(EXAMPLES),
         SETTINGS.model_dump_json()],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert child.returncode == 137, child.stderr[-2000:]
    left = sorted(p.name for p in (out / "checkpoints").iterdir())
    # what the kill left: a half-written .tmp folder, or the finished step-2 checkpoint
    assert left == (["step-000002"] if where == "after-rename" else ["step-000002.tmp"])

    resumed = finetune(spec, EXAMPLES, out, SETTINGS, progress=False)
    assert resumed.provenance.status == "complete"
    assert resumed.losses == straight.losses
    adapter = Path("adapter") / "adapter_model.safetensors"
    assert _sha(out / adapter) == _sha(tmp_path / "straight" / adapter)
    assert sorted(p.name for p in (out / "checkpoints").iterdir()) == [
        "step-000002",
        "step-000004",
    ]


def test_a_damaged_finished_checkpoint_falls_back_to_the_one_before(
    tiny_lm: Path, tmp_path: Path
) -> None:
    spec = f"hf:{tiny_lm}"
    six = SETTINGS.model_copy(update={"max_steps": 6})
    straight = finetune(spec, EXAMPLES, tmp_path / "straight", six, progress=False)
    out = tmp_path / "damaged"
    finetune(spec, EXAMPLES, out, six, progress=False, stop_after=4)
    state = out / "checkpoints" / "step-000004" / "state.pt"
    state.write_bytes(state.read_bytes()[:100])  # damaged after it was written
    with pytest.warns(UserWarning, match="unreadable checkpoint, passed over"):
        resumed = finetune(spec, EXAMPLES, out, six, progress=False)
    assert resumed.losses == straight.losses
    adapter = Path("adapter") / "adapter_model.safetensors"
    assert _sha(out / adapter) == _sha(tmp_path / "straight" / adapter)
