"""A held-out round's labelling pack, and its corpus from the labels (docs/answers.md, "What the
rounds say").

    python scripts/labelling_pack.py pack PACK REPLIES:RUNS [REPLIES:RUNS ...]
    python scripts/labelling_pack.py corpus PACK CORPUS LABELLERS BATCH [RELABELLED]

``pack``: REPLIES is what scripts/fresh_replies.py printed for one model, RUNS the folder it
wrote the runs to. Writes PACK/all.jsonl: every reply with an ``id`` and the prompt the model
was shown (``prompt_shown_to_model``: found in its own sample, by sample id and reply text; a
reply text that recurs in a run, such as "No.", must not be shown with another sample's
prompt), and for BBNLI the hypothesis it judged (the sample's own, then its twin's).

``corpus``: reads PACK/labels_A.jsonl and PACK/labels_B.jsonl (two blind labellers, one line
per id, written by the instructions in PACK/INSTRUCTIONS.md) and, if RELABELLED is given,
RELABELLED/labels_C.jsonl and labels_D.jsonl, which replace A and B for the ids they hold;
a reply the two labellers split on is adjudicated as no answer ("when in doubt whether a
reply commits, it does not") and the split noted on its line. Writes CORPUS/<corpus>.jsonl
and both labellers' labels and reasons to LABELLERS. Commit both before any reader runs on
the replies.
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from biasaudit.datasets.files import read_json_lines

Row = dict[str, Any]


def _lines(path: Path) -> list[Row]:
    return read_json_lines(path)


def _write(path: Path, rows: list[Row]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")


def _sample_id(row: Row) -> str:
    """The sample a corpus line came from (CALM's note adds " gold=...")."""
    return str(row["note"]).split(" gold=")[0].strip()


def _prompt(exchange: Row) -> str:
    request = exchange["request"]
    if request.get("messages"):
        users = [m["content"] for m in request["messages"] if m["role"] == "user"]
        return users[-1] if len(users) == 1 else users[0][:600] + "\n[...]\n" + users[-1]
    return "[...]" + request["prompt"][-700:]


def shown(row: Row, samples: list[Row]) -> tuple[str | None, str | None]:
    """(the prompt of the request that got `row`'s reply, the hypothesis it judged for BBNLI),
    looked up in the reply's own sample only."""
    for sample in samples:
        if sample["sample_id"] != _sample_id(row):
            continue
        asked = [ex for ex in sample["exchanges"] if ex["request"]["kind"] == "generate"]
        for i, exchange in enumerate(asked):
            if (exchange.get("response") or {}).get("text") == row["reply"]:
                data = sample.get("data") or {}
                hypotheses = [data.get("hypothesis"), data.get("twin_hypothesis")]
                own = hypotheses[i] if row["corpus"] == "bbnli_nli" and i < 2 else None
                return _prompt(exchange), own
    return None, None


def pack(out: Path, sources: list[str]) -> list[Row]:
    rows: list[Row] = []
    for source in sources:
        replies, runs = (Path(p) for p in source.split(":", 1))
        cache: dict[str, list[Row]] = {}
        for row in _lines(replies):
            run = re.search(r"run=(\S+)", row["source"])
            if run is None:
                raise SystemExit(f"{replies}: a line without run=: {row['source']!r}")
            if run.group(1) not in cache:
                cache[run.group(1)] = _lines(runs / run.group(1) / "samples.jsonl")
            prompt, hypothesis = shown(row, cache[run.group(1)])
            if prompt is None:
                raise SystemExit(f"{replies}: no sample {_sample_id(row)!r} holds the reply")
            row = {**row, "id": len(rows), "prompt_shown_to_model": prompt}
            if hypothesis is not None:
                row["hypothesis"] = hypothesis
            rows.append(row)
    out.mkdir(parents=True, exist_ok=True)
    _write(out / "all.jsonl", rows)
    return rows


_ANY = {"unparsed", "refused", "empty"}
#: The labels each corpus takes (PACK/INSTRUCTIONS.md); "chose" with its letter in `choice`.
LABELS: dict[str, set[str]] = {
    "bbq_mcq": {"A", "B", "C"} | _ANY,
    "multiple_choice": {"chose"} | _ANY,
    "stop_yesno": {"yes", "no"} | _ANY,
    "bbnli_nli": {"yes", "no", "unknown"} | _ANY,
    "calm_nli": {"True", "False", "Neither"} | _ANY,
    "calm_sentiment": {"positive", "negative", "neutral", "toxic", "not_toxic"} | _ANY,
    "calm_qa": {"correct", "wrong", "A", "B", "C", "D"} | _ANY,
    "beads_label": {"biased", "neutral", "unknown"} | _ANY,
    "beads_agreement": {"agree", "disagree", "unknown"} | _ANY,
}


def check_label(label: Row, corpus_name: str, where: str) -> None:
    """A label written in another corpus's form (a bare "C" for a multiple-choice "chose" with
    choice "C") would count as a split: refused with one line naming the file, id and field."""
    allowed = LABELS.get(corpus_name)
    if allowed is not None and label.get("label") not in allowed:
        raise SystemExit(
            f"{where} id {label.get('id')}: label {label.get('label')!r} is not a "
            f"{corpus_name} label ({', '.join(sorted(allowed))})"
        )
    if label.get("label") == "chose" and not re.fullmatch(r"[A-J]", str(label.get("choice"))):
        raise SystemExit(f"{where} id {label.get('id')}: choice must be a letter for 'chose'")


def _key(label: Row) -> tuple[str, str | None]:
    return label["label"], label.get("choice")


def _labels(folder: Path, a: str, b: str) -> tuple[dict[int, Row], dict[int, Row]]:
    first = {x["id"]: x for x in _lines(folder / f"labels_{a}.jsonl")}
    second = {x["id"]: x for x in _lines(folder / f"labels_{b}.jsonl")}
    if set(first) != set(second):
        raise SystemExit(f"{folder}: labellers {a} and {b} labelled different ids")
    return first, second


def corpus(pack_dir: Path, out: Path, labellers: Path, batch: str, again: Path | None) -> int:
    """Writes the corpus; returns the number of splits."""
    rows = _lines(pack_dir / "all.jsonl")
    a, b = _labels(pack_dir, "A", "B")
    relabelled: set[int] = set()
    if again is not None:
        c, d = _labels(again, "C", "D")
        relabelled = set(c)
        a, b = {**a, **c}, {**b, **d}
    if set(a) != {r["id"] for r in rows}:
        raise SystemExit(f"{pack_dir}: the labels do not cover every id of all.jsonl")
    by_corpus: dict[str, list[Row]] = defaultdict(list)
    splits = 0
    kept = []
    for row in rows:
        first, second = a[row["id"]], b[row["id"]]
        for who, label in (("A", first), ("B", second)):
            check_label(label, row["corpus"], f"{pack_dir}/labels_{who}.jsonl")
        label = dict(first)
        line = {k: v for k, v in row.items() if k not in ("id", "prompt_shown_to_model")}
        if _key(first) != _key(second):
            splits += 1
            label = {"label": "unparsed", "class": "no_answer", "choice": None}
            label |= {"outcome": "unparsed", "value": None}
            line["note"] = (
                f"{line['note']}; two labellers split ({first['label']} / {second['label']}); "
                "adjudicated no answer (when in doubt whether a reply commits, it does not)"
            )
        name = line.pop("corpus")
        line["label"], line["class"] = label["label"], label["class"]
        if name == "multiple_choice":
            line["choice"] = label.get("choice")
        if name.startswith("beads"):
            answered = label["label"] in ("biased", "neutral", "agree", "disagree")
            line["outcome"] = label.get("outcome") or ("answered" if answered else label["label"])
            line["value"] = label.get("value") if line["outcome"] == "answered" else None
        line["batch"] = batch
        by_corpus[name].append(line)
        kept.append(
            {
                "corpus": name,
                "model": row["model"],
                "note": row["note"],
                "reply_start": row["reply"][:80],
                "A": {k: first.get(k) for k in ("label", "choice", "why")},
                "B": {k: second.get(k) for k in ("label", "choice", "why")},
            }
            | (
                {"relabelled": "labelled again (C, D) with its own prompt"}
                if row["id"] in relabelled
                else {}
            )
        )
    out.mkdir(parents=True, exist_ok=True)
    for name, lines in by_corpus.items():
        _write(out / f"{name}.jsonl", lines)
    _write(labellers, kept)
    return splits


def main(argv: list[str]) -> None:
    if len(argv) >= 3 and argv[0] == "pack":
        rows = pack(Path(argv[1]), argv[2:])
        print(f"{len(rows)} replies in {argv[1]}/all.jsonl")
    elif len(argv) in (5, 6) and argv[0] == "corpus":
        again = Path(argv[5]) if len(argv) == 6 else None
        splits = corpus(Path(argv[1]), Path(argv[2]), Path(argv[3]), argv[4], again)
        print(f"corpus written to {argv[2]}; {splits} splits adjudicated as no answer")
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
