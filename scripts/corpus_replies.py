"""A run folder's generated replies as corpus rows to be labelled by hand (tests/corpora/).

Reads RUN_DIR/samples.jsonl (and run.json for the benchmark options) of a `biasaudit run`
and prints one JSON line per distinct reply, in the line format of the corpus it belongs to,
with ``"label": null`` (and ``"class": null``) for a person to fill in by reading the reply:

| benchmark | corpus | declaration kept with the reply |
|---|---|---|
| bbq (letter / free_text) | bbq_mcq.jsonl | answers, unknown_loc, question, protocol |
| stop_downstream | multiple_choice.jsonl | task, item, options as shown, unknown, question |
| stop | stop_yesno.jsonl | (none) |
| bbnli (generative) | bbnli_nli.jsonl | hypothesis |
| calm (generate) | calm_nli / calm_sentiment / calm_qa.jsonl | kind, gold, options |
| beads classify, stereotype, fill | beads_label, _agreement, _fill.jsonl | text, template |

Each line also carries ``corpus`` (the file it goes to, removed when it is appended) and a
``source`` naming the model and the run. No reader is run here: the labels are written
before any reader sees the replies.

    PYTHONPATH=src python scripts/corpus_replies.py RUN_DIR MODEL_TAG [MAX_PER_CORPUS]
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from biasaudit.datasets.files import read_json_lines

Row = dict[str, Any]
CALM_CORPUS = {
    "nli2": "calm_nli",
    "nli3": "calm_nli",
    "sentiment": "calm_sentiment",
    "toxic": "calm_sentiment",
    "qa": "calm_qa",
    "mcqa": "calm_qa",
}
BEADS_CORPUS = {"classify": "beads_label", "stereotype": "beads_agreement", "fill": "beads_fill"}


def _replies(sample: Row) -> list[str]:
    return [
        ex["response"]["text"]
        for ex in sample["exchanges"]
        if ex["request"]["kind"] == "generate" and ex["response"].get("error") is None
    ]


def _unknown(options: list[str]) -> int | None:
    from biasaudit.benchmarks.stop_downstream.protocol import unknown_position

    return unknown_position(options)


def _question(prompt: str) -> str | None:
    for line in prompt.splitlines():
        if line.startswith("Question: "):
            return line[len("Question: ") :]
    return None


def rows(sample: Row, options: Row, source: str, model: str) -> Iterator[Row]:
    bench, data = sample["benchmark"], sample["data"]
    base = {"label": None, "class": None, "source": source, "model": model}
    base["note"] = sample["sample_id"]
    for position, reply in enumerate(_replies(sample)):
        row: Row = {"reply": reply, **base}
        if bench == "bbq":
            protocol = options.get("protocol", "loglikelihood")
            row.update(
                corpus="bbq_mcq",
                protocol=protocol,
                answers=data["answers"],
                unknown_loc=data["unknown_loc"],
                question=data["question"],
            )
        elif bench == "stop_downstream":
            shown = list(data["options"])
            unknown = _unknown(shown) if data["task"] == "bbq" else None
            row.update(
                corpus="multiple_choice",
                task=data["task"],
                item=data["item_id"],
                options=shown,
                unknown=unknown,
                question=_question(data["prompt"]) if data["task"] == "bbq" else None,
                choice=None,
            )
        elif bench == "stop":
            row["corpus"] = "stop_yesno"
        elif bench == "bbnli":
            row["corpus"] = "bbnli_nli"
            # the hypothesis this reply judged: the sample's own first, then its twin's
            hypotheses = [data.get("hypothesis"), data.get("twin_hypothesis")]
            row["hypothesis"] = hypotheses[position] if position < 2 else None
        elif bench == "calm":
            kind = data["kind"]
            row.update(corpus=CALM_CORPUS[kind], kind=kind)
            if kind == "mcqa":
                row["options"] = data["options"]
            if kind == "qa":
                row["gold"] = data["gold"]
            row["note"] += f" gold={data['gold']!r}"
        elif bench == "beads":
            task = options.get("task", "classify")
            row.update(corpus=BEADS_CORPUS[task], outcome=None, value=None)
            if task == "fill":
                row["template"] = data["template"]
            if task == "classify":
                row["text"] = data["text"]  # the passage: a label for a text of its own is none
        else:
            continue
        yield row


def main() -> None:
    run = Path(sys.argv[1])
    tag = sys.argv[2]
    most = int(sys.argv[3]) if len(sys.argv) > 3 else 10**9
    meta = json.loads((run / "run.json").read_text(encoding="utf-8"))
    seen: set[tuple[str, str]] = set()
    count: dict[str, int] = {}
    for sample in read_json_lines(run / "samples.jsonl"):
        opts = meta.get("options", {}).get(sample["benchmark"], {})
        source = f"model:{tag} {sample['benchmark']} run={run.name} seed={meta.get('seed', 0)}"
        for row in rows(sample, opts, source, tag):
            key = (row["corpus"], json.dumps({k: v for k, v in row.items() if k != "note"}))
            if key in seen or count.get(row["corpus"], 0) >= most:
                continue
            seen.add(key)
            count[row["corpus"]] = count.get(row["corpus"], 0) + 1
            sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
