"""Multi-turn STOP on `embedded`: biasaudit's runner vs a bare llama-cpp-python loop.

In one process, on the same machine:

- `loop`: the baseline. A plain `llama_cpp.Llama` (same GGUF, n_ctx, threads) sends every
  chat request of `biasaudit run stop --limit N` with `create_chat_completion`, conversation
  by conversation (all turns of a progression, then the next), so llama.cpp reuses the KV
  cache of each conversation's previous turn.
- `run p=1`: `biasaudit run stop --limit N -M n_threads=T -M parallel=1` (one conversation
  in flight; the runner sends its turns back to back).
- `run p=K`: the same with K conversations decoded together by the batched decoder.

Each run uses a fresh response cache (all requests are misses). Times include model
loading on both sides. The script checks that every reply equals the loop's reply for the
same request (greedy decoding), then prints the ratios run / loop (< 1: faster than the loop).

Usage: python bench/stop_multiturn.py [--limit 10] [--threads 1] [--parallel 1 8]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from biasaudit.api import evaluate
from biasaudit.models.llamacpp import DEFAULT_N_CTX, quiet_stderr, smollm2_path


def run_biasaudit(
    limit: int, threads: int, parallel: int
) -> tuple[tuple[float, float], list[dict[str, Any]]]:
    with tempfile.TemporaryDirectory() as tmp:
        started, cpu = time.perf_counter(), time.process_time()
        evaluate(
            "stop",
            "embedded",
            model_args={"n_threads": threads, "parallel": parallel},
            output_dir=Path(tmp) / "run",
            cache_path=Path(tmp) / "cache.sqlite",
            limit=limit,
            progress=False,
        )
        elapsed = (time.perf_counter() - started, time.process_time() - cpu)
        lines = (Path(tmp) / "run" / "samples.jsonl").read_text().splitlines()
    return elapsed, [json.loads(line) for line in lines]


def run_loop(
    records: list[dict[str, Any]], threads: int
) -> tuple[tuple[float, float], list[list[str]]]:
    from llama_cpp import Llama

    started, cpu = time.perf_counter(), time.process_time()
    with quiet_stderr():
        llm = Llama(
            model_path=str(smollm2_path()),
            n_ctx=DEFAULT_N_CTX,
            n_threads=threads,
            n_threads_batch=threads,
            verbose=False,
            seed=0,
        )
    replies = []
    for record in records:  # conversation by conversation
        turns = []
        for exchange in record["exchanges"]:
            request = exchange["request"]
            params = request["params"]
            out = llm.create_chat_completion(
                request["messages"],
                temperature=params["temperature"],
                top_p=params["top_p"],
                top_k=0,
                min_p=0.0,
                repeat_penalty=1.0,
                max_tokens=params["max_tokens"],
                stop=list(params["stop"]),
                seed=params["seed"],
            )
            turns.append(out["choices"][0]["message"]["content"] or "")
        replies.append(turns)
    elapsed = (time.perf_counter() - started, time.process_time() - cpu)
    llm.close()
    return elapsed, replies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=10)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--parallel", type=int, nargs="+", default=[1, 8])
    args = parser.parse_args()
    print(f"nproc {os.cpu_count()}, load average {os.getloadavg()}")
    runs = {}
    for parallel in args.parallel:
        runs[parallel] = run_biasaudit(args.limit, args.threads, parallel)
        wall, cpu = runs[parallel][0]
        print(f"biasaudit run stop p={parallel}: {wall:.1f} s wall, {cpu:.1f} s CPU", flush=True)
    records = runs[args.parallel[0]][1]
    n_requests = sum(len(r["exchanges"]) for r in records)
    loop_time, loop_replies = run_loop(records, args.threads)
    print(
        f"bare loop ({n_requests} chat requests): {loop_time[0]:.1f} s wall, "
        f"{loop_time[1]:.1f} s CPU",
        flush=True,
    )
    for parallel, (elapsed, recs) in runs.items():
        mismatches = 0
        for record, expected in zip(recs, loop_replies, strict=True):
            got = [e["response"]["text"] for e in record["exchanges"]]
            mismatches += sum(1 for a, b in zip(got, expected, strict=False) if a != b)
            mismatches += abs(len(got) - len(expected))
        print(
            f"p={parallel}: ratio run/loop {elapsed[0] / loop_time[0]:.2f}x wall, "
            f"{elapsed[1] / loop_time[1]:.2f}x CPU time, "
            f"replies differing from the loop: {mismatches} of {n_requests}"
        )
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
