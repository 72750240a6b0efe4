"""Prefix sharing on the `hf` backend: the same log-likelihood requests scored whole (plain
batch, `share_prefix=false`) and with shared prefixes evaluated once (`share_prefix=true`,
biasaudit.models.hf.prefix), in one process on one loaded model, per benchmark.

Workload: the log-likelihood requests a benchmark builds for its samples (every `--step`-th
sample; WinoBias: a prompt and two options; StereoSet intrasentence: three whole sentences;
CrowS-Pairs: a pair's two sentences), SmolLM2-135M-Instruct through `hf:embedded`. Prints
wall time and requests/s per side and batch size, the ratio plain / shared (> 1: sharing is
faster) and the largest |difference| between the two sides' log-likelihoods.

Usage: BIASAUDIT_DATA_DIR=../shared/datasets python bench/share_prefix.py
       [--benchmarks winobias stereoset crows_pairs] [--step 5] [--batch-sizes 8 64]
       [--threads 2]
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Any

from biasaudit import plugin
from biasaudit.discovery import open_store
from biasaudit.models import load_backend
from biasaudit.requests import LoglikelihoodRequest

OPTIONS: dict[str, dict[str, Any]] = {"stereoset": {"splits": ["intrasentence"]}}


def requests_of(name: str, step: int, data_dir: Path) -> list[LoglikelihoodRequest]:
    benchmark = plugin.build(name, OPTIONS.get(name, {}), open_store(data_dir))
    samples = list(benchmark.samples())[::step]
    found = [r for s in samples for r in benchmark.next_requests(s, [])]
    return [r for r in found if isinstance(r, LoglikelihoodRequest)]


def timed(backend: Any, requests: list[LoglikelihoodRequest]) -> tuple[float, list[float]]:
    started = time.perf_counter()
    responses = backend.loglikelihood(requests)
    return time.perf_counter() - started, [r.logprob for r in responses]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--benchmarks", nargs="+", default=["winobias", "stereoset", "crows_pairs"])
    parser.add_argument("--step", type=int, default=5)
    parser.add_argument("--batch-sizes", type=int, nargs="+", default=[8, 64])
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    data_dir = Path(os.environ.get("BIASAUDIT_DATA_DIR", "../shared/datasets"))
    backend: Any = load_backend("hf:embedded", {"threads": args.threads})
    print(f"nproc {os.cpu_count()}, threads {args.threads}, load average {os.getloadavg()}")
    for name in args.benchmarks:
        requests = requests_of(name, args.step, data_dir)
        print(f"{name}: {len(requests)} requests (every {args.step}th sample)", flush=True)
        for size in args.batch_sizes:
            backend.args.batch_size = size
            backend.args.share_prefix = False
            plain, plain_values = timed(backend, requests)
            backend.args.share_prefix = True
            shared, shared_values = timed(backend, requests)
            gap = max(abs(a - b) for a, b in zip(plain_values, shared_values, strict=True))
            print(
                f"  batch {size}: plain {plain:.1f} s ({len(requests) / plain:.1f} req/s), "
                f"shared {shared:.1f} s ({len(requests) / shared:.1f} req/s), "
                f"ratio {plain / shared:.2f}x, max |diff| {gap:.1e}",
                flush=True,
            )
    print(f"load average at the end {os.getloadavg()}")


if __name__ == "__main__":
    main()
