"""Full CALM (log-likelihood) on `embedded`: tokens llama.cpp must evaluate, and a projection.

A full CALM run is 78,400 prompts. This script plans the very request stream `biasaudit run
calm -O protocol=loglikelihood -m embedded` sends (samples in `iter_samples` order, one
sample at a time: the llama.cpp backend's conversation window is 1; a sample's requests in
the backend's trie order) and counts, with the backend's own tokenizer split
(`GGUFBackend._split_tokens`), the tokens its `PrefixScorer` evaluates: every token after the
prefix shared with the previous request, except the last continuation token. No model
forward pass is run, so the count for all 78,400 prompts takes minutes.

With `--calibrate RUN_DIR [CPU_S]`, the tokens of a measured run (its options are read from
run.json's config) are counted too, and the measured CPU seconds per evaluated token project
the full run's CPU time.

Usage: python bench/calm_tokens.py [-O key=value ...] [--limit N]
           [--calibrate RUN_DIR CPU_SECONDS ...]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterable
from itertools import islice
from pathlib import Path
from typing import Any

from biasaudit.api import build_benchmarks
from biasaudit.discovery import open_store
from biasaudit.models import load_backend
from biasaudit.models.llamacpp.slots import common_prefix
from biasaudit.requests import LoglikelihoodRequest


def evaluated_tokens(backend: Any, options: dict[str, Any], limit: int | None) -> dict[str, int]:
    """Prompts, requests and evaluated tokens of CALM with `options`, in run order."""
    bench = build_benchmarks(["calm"], {"calm": options}, open_store(), 0)[0]
    samples: Iterable[Any] = bench.iter_samples()
    if limit is not None:
        samples = islice(samples, limit)
    previous: list[int] = []
    counts = {"prompts": 0, "requests": 0, "tokens": 0, "tokens_without_reuse": 0}
    for sample in samples:
        requests = [
            r for r in bench.next_requests(sample, []) if isinstance(r, LoglikelihoodRequest)
        ]
        splits = [backend._split_tokens(r.context, r.continuation) for r in requests]
        for context, continuation in sorted(splits, key=lambda s: s[0] + s[1]):
            tokens = context + continuation
            keep = min(common_prefix(previous, tokens), len(context) - 1)
            counts["tokens"] += len(tokens) - 1 - keep
            counts["tokens_without_reuse"] += len(tokens) - 1
            previous = tokens
        counts["prompts"] += 1
        counts["requests"] += len(requests)
    return counts


def run_options(run_dir: Path) -> tuple[dict[str, Any], int | None]:
    """CALM options and --limit of a finished run (run.json's recorded config)."""
    config = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    return dict(config["options"]["calm"]), config.get("limit")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-O", dest="options", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--calibrate", nargs=2, action="append", default=[],
                        metavar=("RUN_DIR", "CPU_SECONDS"))  # fmt: skip
    args = parser.parse_args()
    backend = load_backend("embedded", {"n_threads": 1})
    options: dict[str, Any] = {"protocol": "loglikelihood"}
    options.update(dict(o.split("=", 1) for o in args.options))
    rates = []
    for run_dir, cpu in args.calibrate:
        run_opts, limit = run_options(Path(run_dir))
        counts = evaluated_tokens(backend, {**run_opts, "protocol": "loglikelihood"}, limit)
        rate = float(cpu) / counts["tokens"]
        rates.append(rate)
        print(f"calibration {run_dir}: options {run_opts} limit {limit}: {counts};"
              f" {cpu} CPU s -> {1000 * rate:.2f} ms per evaluated token")  # fmt: skip
    start = time.process_time()
    counts = evaluated_tokens(backend, options, args.limit)
    print(f"plan {options} limit {args.limit}: {counts}"
          f" ({time.process_time() - start:.0f} s to count)")  # fmt: skip
    print(
        f"prefix reuse evaluates {counts['tokens'] / counts['tokens_without_reuse']:.1%}"
        " of the tokens a no-reuse scorer would"
    )
    for rate in rates:
        hours = counts["tokens"] * rate / 3600
        print(f"projected CPU time at {1000 * rate:.2f} ms/token: {hours:.2f} h (one thread)")


if __name__ == "__main__":
    main()
