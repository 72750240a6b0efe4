"""`merge` accepts exactly the shards {0..N-1}/N of one plan, and never passes off a missing
shard as a complete run (reliability audit round 3, H1, M1, M9, L5).

The shards are real STOP runs through the openai backend against a loopback server
(`fake_openai`); STOP `--limit 6` split 3 ways gives shards of 2 samples each (positions
i and i + 3), which is the oracle for the sample counts below.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI

import biasaudit
from biasaudit.cli.app import EXIT_INCOMPLETE, main
from biasaudit.results.io import read_results
from biasaudit.results.lock import LOCK_FILE

LIMIT = 6


def make_shards(root: Path, data_dir: Path) -> dict[str, Path]:
    """Shard sets: a good 3-way split and its odd relatives (also used by
    scripts/hostile_harness.py)."""
    made: dict[str, Path] = {}

    def run(name: str, url: str, **kwargs: Any) -> None:
        kwargs.setdefault("limit", LIMIT)
        biasaudit.evaluate(
            "stop", f"openai:m@{url}", output_dir=root / name, data_dir=data_dir,
            use_cache=False, progress=False, **kwargs,
        )  # fmt: skip
        made[name] = root / name

    with FakeOpenAI() as server:
        for i in range(3):
            run(f"s{i}", server.base_url, shard=(i, 3))
        run("seed1", server.base_url, shard=(2, 3), seed=1)
        run("limit9", server.base_url, shard=(2, 3), limit=9)
        run("half1", server.base_url, shard=(1, 2))
        run("whole", server.base_url)
        run("high", server.base_url, shard=(2, 3), options={"stop": {"severity": ["high"]}})
        server.fail_after = server.n_posts + 2  # the start-up probe, then every POST fails
        run("lost2", server.base_url, shard=(2, 3), model_args={"max_retries": 0})
    with FakeOpenAI() as other:  # another server: another model fingerprint
        run("other_model", other.base_url, shard=(2, 3))
    return made


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> dict[str, Path]:
    return make_shards(tmp_path_factory.mktemp("shards"), data_dir)


#: shard sets refused, the folder named, and words of the message
MIXTURES: dict[str, tuple[list[str], str, str]] = {
    "a shard twice": (["s0", "s1", "s1"], "s1", "given twice"),
    "another seed": (["s0", "s1", "seed1"], "seed1", "seed 1 vs 0"),
    "another limit": (["s0", "s1", "limit9"], "limit9", "limit 9 vs 6"),
    "shards of two splits": (["s0", "half1"], "half1", "different splits"),
    "a whole run among shards": (["s0", "s1", "whole"], "whole", "not a shard"),
    "a whole run first": (["whole", "s1"], "whole", "not a shard"),
    "other options": (["s0", "s1", "high"], "high", "options"),
    "another model": (["s0", "s1", "other_model"], "other_model", "a different model"),
}


def merge_cli(
    dirs: list[Path], out: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[int, list[str]]:
    code = main(["merge", *map(str, dirs), "-o", str(out), *extra])
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    return code, err


def test_the_whole_set_merges_complete(
    shards: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = merge_cli([shards["s2"], shards["s0"], shards["s1"]], tmp_path / "m", capsys)
    merged = read_results(tmp_path / "m")
    assert (code, err) == (0, [])
    assert merged.status == "complete" and merged.benchmarks[0].n_samples == LIMIT


def test_a_missing_shard_is_a_partial_merge_with_exit_3(
    shards: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = merge_cli([shards["s0"], shards["s1"]], tmp_path / "m", capsys)
    merged = read_results(tmp_path / "m")
    assert code == EXIT_INCOMPLETE
    assert len(err) == 1 and "partial merge" in err[0] and "missing shard(s) 2/3" in err[0]
    assert merged.status == "partial" and "missing shard(s) 2/3" in (merged.status_reason or "")
    assert merged.benchmarks[0].n_samples == 4  # positions 0, 3, 1, 4 of 6


@pytest.mark.parametrize(("names", "offender", "words"), MIXTURES.values(), ids=list(MIXTURES))
def test_a_mixture_is_refused_naming_the_folder(
    shards: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    names: list[str],
    offender: str,
    words: str,
) -> None:
    code, err = merge_cli([shards[n] for n in names], tmp_path / "m", capsys)
    assert code == 2 and len(err) == 1
    assert f"{shards[offender]}:" in err[0] and words in err[0]
    assert not (tmp_path / "m").exists()


def test_a_copied_shard_counts_as_given_twice(
    shards: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(shards["s1"], copy)
    code, err = merge_cli([shards["s0"], shards["s1"], copy, shards["s2"]], tmp_path / "m", capsys)
    assert code == 2 and len(err) == 1 and f"{copy}: shard 1/3 is given twice" in err[0]


def test_a_shard_with_lost_samples_makes_a_partial_merge(
    shards: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = merge_cli([shards["s0"], shards["s1"], shards["lost2"]], tmp_path / "m", capsys)
    merged = read_results(tmp_path / "m")
    assert code == EXIT_INCOMPLETE and len(err) == 1
    assert merged.status == "partial"
    assert merged.benchmarks[0].n_request_errors == 2  # shard 2/3 lost both of its samples


def test_results_without_a_recorded_plan_still_merge_and_are_still_checked(
    shards: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Folders written before the plan was recorded: the plan is rebuilt from their fields."""
    old = {}
    for name in ("s0", "s1", "s2", "seed1"):
        old[name] = tmp_path / name
        shutil.copytree(shards[name], old[name])
        results = json.loads((old[name] / "results.json").read_text())
        results.pop("plan")
        for bench in results["benchmarks"]:
            bench.pop("exchanges_hash")  # not recorded then either
        (old[name] / "results.json").write_text(json.dumps(results))
    assert main(["score", str(old["s0"])]) == 0  # still read and rescored
    capsys.readouterr()
    code, err = merge_cli([old["s0"], old["s1"], old["s2"]], tmp_path / "m", capsys)
    assert (code, err) == (0, [])
    code, err = merge_cli([old["s0"], old["s1"], old["seed1"]], tmp_path / "m2", capsys)
    assert code == 2 and f"{old['seed1']}:" in err[0] and "seed 1 vs 0" in err[0]


def test_the_output_may_not_be_a_file_an_input_or_another_run(
    shards: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    three = [shards["s0"], shards["s1"], shards["s2"]]
    a_file = tmp_path / "hostname"
    a_file.write_text("x\n")
    code, err = merge_cli(three, a_file, capsys)
    assert code == 2 and len(err) == 1 and "not a directory" in err[0]
    assert a_file.read_text() == "x\n"
    before = (shards["s1"] / "results.json").read_bytes()
    code, err = merge_cli(three, shards["s1"], capsys)
    assert code == 2 and len(err) == 1 and "one of the inputs" in err[0]
    assert (shards["s1"] / "results.json").read_bytes() == before
    other = tmp_path / "other"
    shutil.copytree(shards["whole"], other)
    code, err = merge_cli(three, other, capsys)
    assert code == 2 and len(err) == 1 and "already holds a run" in err[0]
    assert read_results(other).shard is None and (other / "run.json").is_file()
    code, err = merge_cli(three, other, capsys, "--overwrite")
    assert (code, err) == (0, [])
    assert not (other / "run.json").exists()  # the other run's settings went with it


def test_a_locked_input_or_output_is_refused(
    shards: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import os
    import socket

    live = json.dumps({"pid": os.getppid(), "host": socket.gethostname()})  # another process
    copy = tmp_path / "s2"
    shutil.copytree(shards["s2"], copy)
    (copy / LOCK_FILE).write_text(live)
    code, err = merge_cli([shards["s0"], shards["s1"], copy], tmp_path / "m", capsys)
    assert code == 2 and len(err) == 1 and "being written by a biasaudit run" in err[0]
    out = tmp_path / "out"
    out.mkdir()
    (out / LOCK_FILE).write_text(live)
    code, err = merge_cli([shards["s0"], shards["s1"], shards["s2"]], out, capsys)
    assert code == 2 and len(err) == 1 and "being written" in err[0]
    assert sorted(p.name for p in out.iterdir()) == [LOCK_FILE]


@pytest.mark.parametrize("new_file", ["samples.jsonl", "results.json"])
def test_the_pair_a_merge_killed_between_its_writes_leaves_is_refused_by_every_reader(
    new_file: str, shards: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A merge over a previous merge (--overwrite) killed after its first write: the new
    file of one merge next to the old file of the other (either order of the two writes)."""
    whole, part = tmp_path / "whole", tmp_path / "part"
    assert merge_cli([shards["s0"], shards["s1"], shards["s2"]], whole, capsys)[0] == 0
    assert merge_cli([shards["s0"], shards["s1"]], part, capsys)[0] == EXIT_INCOMPLETE
    shutil.copy(part / new_file, whole / new_file)
    for argv in (
        ["score", str(whole)],
        ["report", str(whole), "-o", str(tmp_path / "r.html")],
        ["compare", str(part), str(whole)],
        ["export", str(whole), "-o", str(tmp_path / "e")],
    ):
        code = main(argv)
        err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
        assert code == 2 and len(err) == 1 and "samples.jsonl" in err[0], (argv, err)
