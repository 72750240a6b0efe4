"""Collect real embedded-model replies to BEADs prompts on the fixture data (parser corpora).

Writes JSONL lines {"kind", "prompt_id", "item", "seed", "temperature", "reply"} to stdout;
the labels in tests/corpora/beads_*.jsonl were then added by hand.
Run: nice -n 10 python scripts/beads_corpus_replies.py [KIND FIRST_SEED LAST_SEED MAX_TOKENS]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from biasaudit.benchmarks.beads import prompts
from biasaudit.benchmarks.beads.dataset import BeadsData
from biasaudit.models.spec import load_backend
from biasaudit.requests import GenerateRequest, GenerationParams, Message

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "beads"


def main() -> None:
    data = BeadsData(FIXTURES)
    backend = load_backend("embedded", {"n_threads": 1})
    bias = [
        r["text"]
        for k in ("bias_train", "bias_valid")
        for r in data.load(f"1-Text_Classification/{k}").rows
    ]
    variation = [
        r["text"]
        for r in data.load("4-Bias-Quantification-Demographics/demographic_variation").rows
    ]
    stereo = [
        r["template"]
        for r in data.load("4-Bias-Quantification-Demographics/stereotype_prompts").rows
    ]
    templates = [
        r["text"] for r in data.load("4-Bias-Quantification-Demographics/demographic_template").rows
    ]
    jobs = []
    for text in bias + variation:
        jobs.append(("label", prompts.classify_prompt(text), text, 0, 0.0))
    for text in bias[:60]:
        jobs.append(("label", prompts.classify_prompt(text), text, 1, 0.8))
    for seed in range(10):
        for text in stereo:
            jobs.append(
                ("agree", prompts.stereotype_prompt(text), text, seed, 0.0 if seed == 0 else 0.8)
            )
    for seed in range(10):
        for text in templates:
            jobs.append(("fill", prompts.fill_prompt(text), text, seed, 0.0 if seed == 0 else 0.8))
    only, first, last, max_tokens = None, 0, 99, 64
    if len(sys.argv) == 5:
        only, first, last, max_tokens = sys.argv[1], *map(int, sys.argv[2:])
    for kind, prompt, item, seed, temperature in jobs:
        if (only and kind != only) or not first <= seed <= last:
            continue
        request = GenerateRequest(
            messages=(Message(role="user", content=prompt),),
            params=GenerationParams(temperature=temperature, max_tokens=max_tokens, seed=seed),
        )
        response = backend.generate([request])[0]
        line = {
            "kind": kind,
            "item": item,
            "seed": seed,
            "temperature": temperature,
            "reply": response.text,
            "error": response.error,
        }
        print(json.dumps(line, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
