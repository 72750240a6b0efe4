"""Fresh sampled replies of one model to the prompts the benchmarks send, for a corpus to label.

Runs each closed-answer benchmark configuration below on about N of its samples (every k-th
in file order, from an offset set by SEED: a shard) through the ordinary run engine, but
every generate request is sent with temperature 0.8 and a per-request seed derived from SEED
(the benchmarks ask for greedy replies; sampled ones are the replies nobody tuned the readers
for). Nothing is cached (a
sampled reply must not answer a later greedy request). The run folders go to OUT/<config>/,
and the replies are printed as corpus lines by scripts/corpus_replies.py (``label`` null):
a person labels them, and the labels are committed before any reader runs on them.

    PYTHONPATH=src python scripts/fresh_replies.py MODEL TAG OUT SEED N MOST [CONFIGS] > out.jsonl

MOST: at most this many replies per configuration, evenly spaced through the run's.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from biasaudit.api import evaluate_one
from biasaudit.datasets.files import read_json_lines
from biasaudit.discovery import open_store
from biasaudit.models import base as model_base
from biasaudit.plugin import benchmark_class
from biasaudit.requests import GenerateRequest, Response
from biasaudit.runner import engine

ROOT = Path(__file__).resolve().parent.parent
DATA = os.environ.get("BIASAUDIT_DATA_DIR")
TEMPERATURE = 0.8
#: (folder name, benchmark, options): the closed-answer generative configurations.
CONFIGS: list[tuple[str, str, dict[str, Any]]] = [
    ("bbq_letter", "bbq", {"protocol": "letter"}),
    ("bbq_free", "bbq", {"protocol": "free_text"}),
    ("stop", "stop", {"max_tokens": 40}),
    ("bbnli", "bbnli", {"protocol": "generative"}),
    ("calm", "calm", {"tasks": ["nli", "sentiment", "qa"]}),
    ("stop_downstream", "stop_downstream", {"tasks": ["bbq", "stereoset", "crows_pairs"]}),
    ("stereoset", "stereoset", {"scorer": "generate"}),
    ("beads_classify", "beads", {"task": "classify", "mode": "generate"}),
    ("beads_stereotype", "beads", {"task": "stereotype"}),
]


def _script(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sampling(backend: model_base.Backend, seed: int) -> model_base.Backend:
    """`backend` with every generate request sampled at TEMPERATURE, seeded per request."""
    plain = backend.generate

    def generate(requests: Sequence[GenerateRequest]) -> list[Response]:
        sampled = []
        for request in requests:
            key = hashlib.sha256(f"{seed}:{request.model_dump_json()}".encode()).hexdigest()
            params = request.params.model_copy(
                update={"temperature": TEMPERATURE, "seed": int(key[:8], 16)}
            )
            sampled.append(request.model_copy(update={"params": params}))
        return plain(sampled)

    backend.generate = generate  # type: ignore[method-assign]
    return backend


_OPTION = re.compile(r"^([A-Z])[.)] (.*)$")


def stereoset_rows(run: Path, tag: str, seed: int) -> list[dict[str, Any]]:
    """StereoSet generate replies as multiple_choice corpus lines (options as shown)."""
    out = []
    for sample in read_json_lines(run / "samples.jsonl"):
        for ex in sample["exchanges"]:
            if ex["request"]["kind"] != "generate" or ex["response"].get("error"):
                continue
            prompt = ex["request"]["messages"][-1]["content"]
            shown = [m.group(2) for m in map(_OPTION.match, prompt.splitlines()) if m]
            out.append(
                {
                    "reply": ex["response"]["text"],
                    "label": None,
                    "class": None,
                    "source": f"model:{tag} stereoset run={run.name} seed={seed}",
                    "model": tag,
                    "note": sample["sample_id"],
                    "corpus": "multiple_choice",
                    "task": "stereoset",
                    "item": sample["sample_id"],
                    "options": shown,
                    "unknown": None,
                    "question": None,
                    "choice": None,
                }
            )
    return out


def main() -> None:
    model, tag, out, seed, n = sys.argv[1], sys.argv[2], Path(sys.argv[3]), *map(int, sys.argv[4:6])
    load = engine.load_backend
    engine.load_backend = lambda spec, args=None: sampling(load(spec, args), seed)
    replies = _script("corpus_replies")
    most = int(sys.argv[6])
    only = set(sys.argv[7].split(",")) if len(sys.argv) > 7 else None
    for name, bench, options in CONFIGS:
        if only and name not in only:
            continue
        run = out / name
        if not (run / "results.json").exists():
            # every k-th sample of the file (spread over its groups), about SPREAD of them
            total = len(benchmark_class(bench).from_dict(options, open_store(DATA)).load_samples())
            evaluate_one(
                bench,
                model,
                options={bench: options},
                model_args={"threads": 1} if model.startswith("hf:") else None,
                output_dir=run,
                use_cache=False,
                seed=seed,
                shard=(seed % max(1, total // n), max(1, total // n)),
                progress=False,
                overwrite=True,
                max_failed_samples=10**6,
            )
        if bench == "stereoset":
            rows = stereoset_rows(run, tag, seed)
        else:
            meta = json.loads((run / "run.json").read_text(encoding="utf-8"))
            rows = []
            for sample in read_json_lines(run / "samples.jsonl"):
                source = f"model:{tag} {bench} run={name} seed={seed}"
                opts = meta.get("options", {}).get(bench, {})
                rows.extend(replies.rows(sample, opts, source, tag))
        step = max(1, len(rows) / most)
        for row in [rows[int(i * step)] for i in range(min(most, len(rows)))]:
            sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
