"""Peak RSS of `biasaudit run calm` at 10% vs 40% of CALM's prompts (issue 14, target 5).

Each run is its own subprocess (`python -m biasaudit.cli run calm ...`) under GNU
`/usr/bin/time`, which reports its peak resident set (`%M`), wall and CPU time.

The measure is of the runner, not of a model: the backend is `replay:FILE`, a real backend
that answers from recorded responses without model compute. FILE is generated here with
one line per log-likelihood request of the *largest* slice (CALM, `protocol=loglikelihood`,
the released 78,400 prompts, first N), with a deterministic made-up log-probability per
request, so every run reads the same file and the replay's own memory (its answer table) is
the same constant in every run; it is measured alone and printed, so it can be subtracted.

Slices: `--limit N`, CALM's first N prompts in the order of `load_samples` (task, then
attribute: the first 10% are QA/gender prompts, the first 40% QA/gender and QA/race).

`--before REV` also measures the sources of git revision REV (extracted with `git archive`
to a temporary folder), so before/after come from one invocation on one machine.

Usage: python bench/streaming_rss.py [--percents 10 40] [--before main] [--keep DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CALM_PROMPTS = 78_400
OPTIONS = ["-O", "protocol=loglikelihood"]


def write_replay(path: Path, limit: int) -> int:
    """One replay line per request of CALM's first `limit` prompts; returns the count."""
    from biasaudit.api import build_benchmarks
    from biasaudit.discovery import open_store
    from biasaudit.requests import request_key

    bench = build_benchmarks(["calm"], {"calm": {"protocol": "loglikelihood"}}, open_store(), 0)[0]
    count = 0
    with path.open("w", encoding="utf-8") as handle:
        for sample in bench.load_samples()[:limit]:
            for request in bench.next_requests(sample, []):
                digest = hashlib.sha256(request_key(request).encode()).digest()
                response = {
                    "kind": "loglikelihood",
                    "logprob": -(int.from_bytes(digest[:4], "big") % 100_000) / 1000,
                    "is_greedy": digest[4] < 128,
                }
                row = {"request": request.model_dump(mode="json"), "response": response}
                handle.write(json.dumps(row) + "\n")
                count += 1
    return count


def child_peak_kib(argv: list[str], env: dict[str, str], log: Path) -> tuple[int, float, float]:
    """Run `argv` under GNU time; (its peak RSS in KiB, wall s, CPU s).

    Not `getrusage`/`wait4` from this process: Linux carries the parent's RSS high-water mark
    into a forked child's `ru_maxrss` across exec, and this process holds the replay
    generation's samples. GNU time forks from a process of a few MiB.
    """
    stats = log.with_suffix(".time")
    with log.open("w") as out:
        done = subprocess.run(
            ["/usr/bin/time", "-o", str(stats), "-f", "%M %e %U %S", *argv],
            env=env, stdout=out, stderr=subprocess.STDOUT, check=False,
        )  # fmt: skip
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(argv)}\n{log.read_text()[-2000:]}")
    peak, wall, user, system = stats.read_text().split()[-4:]
    return int(peak), float(wall), float(user) + float(system)


def extract(rev: str, into: Path) -> Path:
    """The `src` folder of git revision `rev`, extracted under `into`."""
    into.mkdir(parents=True, exist_ok=True)
    archive = into / "src.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), rev, "src"], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--percents", type=float, nargs="+", default=[10.0, 40.0])
    parser.add_argument("--before", help="also measure this git revision's sources")
    parser.add_argument("--keep", help="keep the replay file and runs in this folder")
    args = parser.parse_args()
    limits = sorted(round(CALM_PROMPTS * p / 100) for p in args.percents)
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="streaming-rss-"))
    work.mkdir(parents=True, exist_ok=True)
    replay = work / "replay.jsonl"
    started = time.perf_counter()
    n_requests = write_replay(replay, limits[-1])
    print(
        f"replay file: {n_requests} requests, {replay.stat().st_size / 2**20:.1f} MiB, "
        f"written in {time.perf_counter() - started:.0f} s"
    )
    sources = [("this tree", ROOT / "src")]
    if args.before:
        sources.insert(0, (args.before, extract(args.before, work / "before")))
    python = sys.executable
    print(f"load average at start: {os.getloadavg()}")
    for label, src in sources:
        env = {**os.environ, "PYTHONPATH": str(src)}
        # The replay backend alone (loaded, nothing run), for subtraction.
        probe = (
            "from biasaudit.models.replay import ReplayBackend;"
            "import biasaudit.api, biasaudit.runner.engine;"
            f"ReplayBackend({str(replay)!r})"
        )
        idle = "import biasaudit.api, biasaudit.runner.engine, biasaudit.benchmarks.calm.benchmark"
        tag = label.replace(" ", "_")
        base_kib, _, _ = child_peak_kib([python, "-c", idle], env, work / f"{tag}-idle.log")
        replay_kib, _, _ = child_peak_kib([python, "-c", probe], env, work / f"{tag}-replay.log")
        print(f"\n[{label}] {src}")
        print(
            f"  imports only: {base_kib / 1024:.0f} MiB; + replay table loaded: "
            f"{replay_kib / 1024:.0f} MiB"
        )
        peaks = []
        for limit in limits:
            out = work / f"run-{tag}-{limit}"
            argv = [
                python, "-m", "biasaudit.cli", "run", "calm", *OPTIONS, "-m", f"replay:{replay}",
                "--limit", str(limit), "-o", str(out), "--overwrite", "-q",
                "--cache", str(work / f"cache-{tag}-{limit}.sqlite"),
            ]  # fmt: skip
            peak, wall, cpu = child_peak_kib(argv, env, work / f"{tag}-{limit}.log")
            peaks.append(peak)
            print(
                f"  --limit {limit:>6} ({100 * limit / CALM_PROMPTS:.0f}%): peak RSS "
                f"{peak / 1024:.0f} MiB, wall {wall:.0f} s, CPU {cpu:.0f} s, "
                f"load {os.getloadavg()[0]:.1f}"
            )
        growth = peaks[-1] / peaks[0] - 1
        net = (peaks[-1] - replay_kib) / max(1, peaks[0] - replay_kib) - 1
        print(
            f"  growth {limits[0]} -> {limits[-1]} samples: {100 * growth:+.1f}% "
            f"(without the replay table: {100 * net:+.1f}%)"
        )


if __name__ == "__main__":
    main()
