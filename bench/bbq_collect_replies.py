"""Collect real replies of the embedded models to BBQ letter / free-text prompts.

Used once to build tests/corpora/bbq_mcq.jsonl (the replies were then labelled by hand):

    PYTHONPATH=src python bench/bbq_collect_replies.py OUT.jsonl MODEL_SPEC PROTOCOL N
"""

from __future__ import annotations

import json
import random
import sys

from biasaudit.benchmarks.bbq.prompts import free_text_prompt, letter_prompt
from biasaudit.datasets.bbq import load_bbq
from biasaudit.discovery import open_store
from biasaudit.models.spec import load_backend
from biasaudit.requests import GenerateRequest, GenerationParams, Message


def main(out: str, spec: str, protocol: str, n: int) -> None:
    items = load_bbq(open_store(), ["Age", "Religion", "Disability_status", "Sexual_orientation"])
    picked = random.Random(7).sample(items, n)
    backend = load_backend(spec, {"n_threads": 1})
    build = letter_prompt if protocol == "letter" else free_text_prompt
    requests = [
        GenerateRequest(
            messages=(Message(role="user", content=build(i.context, i.question, i.answers)),),
            params=GenerationParams(max_tokens=48),
        )
        for i in picked
    ]
    responses = backend.generate(requests)
    with open(out, "a", encoding="utf-8") as handle:
        for item, resp in zip(picked, responses, strict=True):
            handle.write(
                json.dumps(
                    {
                        "source": f"{spec}:{protocol}",
                        "protocol": protocol,
                        "uid": item.uid,
                        "answers": list(item.answers),
                        "info_texts": [item.answer_info[f"ans{k}"][0] for k in range(3)],
                        "unknown_loc": item.unknown_loc,
                        "reply": resp.text if resp.error is None else "",
                    }
                )
                + "\n"
            )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]))
