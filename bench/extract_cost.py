"""Cost and agreement of ``-O answer_mode=extract`` against ``answer_mode=free``, same items.

For each model and benchmark configuration: the same N samples (every k-th of the
benchmark's file) run once in free mode and once in extract mode, in this process, without
the response cache; prints the wall time of each, their ratio (the baseline is free mode),
the number of requests, the readers' agreement (metric ``reader_agreement``, n and 95 %
interval), the per-sample verdicts and whether the gate passed.

    PYTHONPATH=src BIASAUDIT_DATA_DIR=... python bench/extract_cost.py [N] [MODEL ...]

ONLY="bbq letter,bbnli" (the names below) runs those configurations only.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from biasaudit.api import evaluate_one
from biasaudit.discovery import open_store
from biasaudit.plugin import benchmark_class

CONFIGS: list[tuple[str, str, dict[str, Any]]] = [
    ("bbq letter", "bbq", {"protocol": "letter"}),
    ("bbq free_text", "bbq", {"protocol": "free_text"}),
    ("bbnli", "bbnli", {"protocol": "generative"}),
    ("stop_downstream", "stop_downstream", {"tasks": ["bbq", "stereoset", "crows_pairs"]}),
    ("stereoset generate", "stereoset", {"scorer": "generate"}),
    ("calm (nli, sentiment)", "calm", {"tasks": ["nli", "sentiment"]}),
    ("beads stereotype", "beads", {"task": "stereotype"}),
    ("stop (no counterfactual)", "stop", {"counterfactual": False}),
]


def _run(model: str, bench: str, options: dict[str, Any], n: int, out: Path) -> tuple[float, Any]:
    total = len(
        benchmark_class(bench)
        .from_dict(options, open_store(os.environ.get("BIASAUDIT_DATA_DIR")))
        .load_samples()
    )
    step = max(1, total // n)
    start = time.perf_counter()
    result = evaluate_one(
        bench,
        model,
        model_args={"threads": 1} if model.startswith("hf:") else None,
        options={bench: options},
        output_dir=out,
        use_cache=False,
        shard=(0, step),
        progress=False,
        overwrite=True,
        max_failed_samples=10**6,
    )
    return time.perf_counter() - start, result


def _verdicts(out: Path) -> tuple[Counter[str], int]:
    verdicts: Counter[str] = Counter()
    requests = 0
    for line in (out / "samples.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        requests += len(record["exchanges"])
        verdicts[str(record["scores"].get("readers"))] += 1
    return verdicts, requests


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    models = sys.argv[2:] or ["embedded", "embedded:gemma3-270m"]
    print(
        "| model | benchmark | samples | free s | extract s | ratio | requests free / extract "
        "| reader_agreement [95 % CI] (n) | verdicts | gate |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for model in models:
            only = os.environ.get("ONLY")
            for name, bench, options in CONFIGS:
                if only and name not in only.split(","):
                    continue
                free_s, _ = _run(
                    model, bench, {**options, "answer_mode": "free"}, n, Path(tmp) / "f"
                )
                _, free_requests = _verdicts(Path(tmp) / "f")
                ext_s, result = _run(
                    model, bench, {**options, "answer_mode": "extract"}, n, Path(tmp) / "e"
                )
                verdicts, ext_requests = _verdicts(Path(tmp) / "e")
                bench_result = result.benchmarks[0]
                metric = next(m for m in bench_result.metrics if m.name == "reader_agreement")
                agreement = "not measurable (no sample answered)"
                if metric.value is not None:
                    interval = f"[{metric.ci_low:.2f}, {metric.ci_high:.2f}]"
                    agreement = f"{metric.value:.2f} {interval} ({metric.n})"
                gate = next(
                    (
                        f.message.split(":")[0]
                        for f in bench_result.validity.flags
                        if f.gate == "readers_agree"
                    ),
                    "pass",
                )
                shown = ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items()))
                print(
                    f"| {model} | {name} | {bench_result.n_samples} | {free_s:.1f} | {ext_s:.1f} | "
                    f"{ext_s / free_s:.2f}x | {free_requests} / {ext_requests} | {agreement} | "
                    f"{shown} | {gate} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
