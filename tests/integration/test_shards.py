"""Many machines: the same run split into shards (a Slurm array, Ray tasks) and merged with
`biasaudit merge` equals the unsharded run, byte for byte except timestamps and counters.

The first Slurm test runs the real batch script (scripts/slurm_shards.sbatch) once per array
index, with the variables Slurm would set; the second (marked slow, `make test-multinode`, which
starts a one-node cluster with scripts/slurm_local.sh) submits it with `sbatch --array` to a
real slurmctld + slurmd, so its `#SBATCH` lines are read by Slurm, and merges the shards in a
job that depends on the array, as the script's header says; the Ray test runs the shards as
tasks on a local Ray cluster (marked slow: Ray's start-up alone takes tens of seconds here).
The model is a loopback OpenAI-compatible server (`fake_openai`) reached through the real
openai backend.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI
from runcompare import assert_same_run

import biasaudit
from biasaudit.cli.app import main

LIMIT = 10
SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "slurm_shards.sbatch"


def unsharded(url: str, out: Path, data_dir: Path) -> Path:
    biasaudit.evaluate(
        "stop", f"openai:m@{url}", limit=LIMIT, output_dir=out, data_dir=data_dir,
        use_cache=False, progress=False,
    )  # fmt: skip
    return out


def merge(shards: list[Path], out: Path, data_dir: Path) -> Path:
    argv = ["merge", *map(str, shards), "-o", str(out), "--data-dir", str(data_dir)]
    assert main(argv) == 0
    return out


def test_slurm_array_shards_merge_into_the_unsharded_run(tmp_path: Path, data_dir: Path) -> None:
    n = 3
    with FakeOpenAI() as server:
        reference = unsharded(server.base_url, tmp_path / "reference", data_dir)
        for index in range(n):
            env = {
                **os.environ,
                "SLURM_ARRAY_TASK_ID": str(index),
                "SLURM_ARRAY_TASK_COUNT": str(n),
                "BIASAUDIT": f"{shlex.quote(sys.executable)} -m biasaudit.cli",
            }
            subprocess.run(
                ["bash", str(SCRIPT), "stop", f"openai:m@{server.base_url}", str(tmp_path / "out"),
                 "--limit", str(LIMIT), "--data-dir", str(data_dir), "--no-cache"],
                check=True, env=env, timeout=300,
            )  # fmt: skip
    shards = sorted((tmp_path / "out").glob("shard-*"))
    assert [s.name for s in shards] == [f"shard-{i}" for i in range(n)]
    merged = merge(shards, tmp_path / "merged", data_dir)
    assert_same_run(reference, merged)


def slurm_ready() -> bool:
    """A Slurm cluster answers (sinfo lists a node that can take jobs)."""
    if shutil.which("sbatch") is None or shutil.which("sinfo") is None:
        return False
    done = subprocess.run(["sinfo", "-h", "-o", "%t"], capture_output=True, text=True, timeout=30)
    return done.returncode == 0 and any(
        state.rstrip("*") in {"idle", "mix", "alloc"} for state in done.stdout.split()
    )


@pytest.mark.slow
def test_real_slurm_array_and_dependent_merge(tmp_path: Path, data_dir: Path) -> None:
    if not slurm_ready():
        if os.environ.get("BIASAUDIT_REQUIRE_SLURM"):
            pytest.fail("no Slurm cluster answers (make test-multinode starts one)")
        pytest.skip("no Slurm cluster (make test-multinode starts one on this machine)")
    n = 3
    out = tmp_path / "out"
    command = f"{shlex.quote(sys.executable)} -m biasaudit.cli"
    # sbatch passes the submitting environment to the tasks (--export=ALL, the default)
    env = {**os.environ, "BIASAUDIT": command}
    logs = tmp_path / "logs"
    logs.mkdir()
    with FakeOpenAI() as server:
        reference = unsharded(server.base_url, tmp_path / "reference", data_dir)
        array = subprocess.run(
            ["sbatch", "--parsable", f"--array=0-{n - 1}", f"--output={logs}/%A_%a.out",
             str(SCRIPT), "stop", f"openai:m@{server.base_url}", str(out),
             "--limit", str(LIMIT), "--data-dir", str(data_dir), "--no-cache"],
            check=True, env=env, capture_output=True, text=True, timeout=60, cwd=tmp_path,
        )  # fmt: skip
        job = array.stdout.strip().split(";")[0]
        merge_cmd = (
            f"{command} merge {shlex.quote(str(out))}/shard-* -o {shlex.quote(str(tmp_path))}"
            f"/merged --data-dir {shlex.quote(str(data_dir))}"
        )
        merged_job = subprocess.run(
            ["sbatch", "--wait", f"--dependency=afterok:{job}", f"--output={logs}/merge.out",
             "--wrap", merge_cmd],
            env=env, capture_output=True, text=True, timeout=900, cwd=tmp_path,
        )  # fmt: skip
    logged = "\n".join(f"{p.name}: {p.read_text()}" for p in sorted(logs.iterdir()))
    assert merged_job.returncode == 0, merged_job.stderr + logged
    shards = sorted(out.glob("shard-*"))
    assert [s.name for s in shards] == [f"shard-{i}" for i in range(n)], logged
    # each task saw the array Slurm made: its index and the array's size
    for index, shard in enumerate(shards):
        run = json.loads((shard / "run.json").read_text())
        assert run["shard"] == [index, n]
    assert_same_run(reference, tmp_path / "merged")


@pytest.mark.slow
def test_ray_task_shards_merge_into_the_unsharded_run(tmp_path: Path, data_dir: Path) -> None:
    ray = pytest.importorskip("ray")
    n = 4
    with FakeOpenAI() as server:
        reference = unsharded(server.base_url, tmp_path / "reference", data_dir)
        url = server.base_url  # the task closes over plain values only

        @ray.remote(num_cpus=0.5)
        def shard(index: int) -> str:
            out = tmp_path / f"shard-{index}"
            biasaudit.evaluate(
                "stop", f"openai:m@{url}", limit=LIMIT, shard=(index, n),
                output_dir=out, data_dir=data_dir, use_cache=False, progress=False,
            )  # fmt: skip
            return str(out)

        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        try:
            shards = [Path(p) for p in ray.get([shard.remote(i) for i in range(n)])]
        finally:
            ray.shutdown()
    merged = merge(shards, tmp_path / "merged", data_dir)
    assert_same_run(reference, merged)
