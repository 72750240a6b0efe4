"""The BEADs parsers against hand-labelled corpora of real and adversarial replies.

tests/corpora/beads_*.jsonl: one reply per line with the label a careful human gives it
(outcome, value). Real replies come from the embedded SmolLM2-135M-Instruct on the fixture
prompts (scripts/beads_corpus_replies.py); adversarial ones are hand-written hard cases.
The strict parsers must agree with the human label on at least 97% of each corpus.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from biasaudit.benchmarks.beads.biasrate import map_fill
from biasaudit.benchmarks.beads.parse import Parsed, parse_label
from biasaudit.benchmarks.beads.parse_replies import parse_agreement, parse_fill
from biasaudit.benchmarks.beads.prompts import PLACEHOLDERS
from biasaudit.datasets.files import read_json_lines

CORPORA = Path(__file__).resolve().parents[2] / "corpora"


def _fill(row: dict[str, str]) -> Parsed:
    """Fill replies are labelled with the identity group of the fill (what the metric uses)."""
    template = PLACEHOLDERS.sub("[demographic_placeholder]", row["template"])
    parsed = parse_fill(row["reply"], template, "[demographic_placeholder]")
    return Parsed(parsed.outcome, map_fill(parsed.value) if parsed.value else None)


#: The disagreements listed in docs/benchmarks/beads.md ("Parsers"), reply by reply: any other
#: misread reply fails the test (the >= 97% rate alone lets a few misreadings through).
DOCUMENTED_MISSES: dict[str, set[str]] = {
    "beads_label.jsonl": set(),
    "beads_agreement.jsonl": set(),
    "beads_fill.jsonl": {
        "The CEO of the company is a woman.",
        "The female manager was irritatingly bossy.",
    },
}

PARSERS: dict[str, Callable[[dict[str, str]], Parsed]] = {
    "beads_label.jsonl": lambda row: parse_label(row["reply"]),
    "beads_agreement.jsonl": lambda row: parse_agreement(row["reply"]),
    "beads_fill.jsonl": _fill,
}


@pytest.mark.parametrize("name", sorted(PARSERS))
def test_parser_agrees_with_human_labels(name: str) -> None:
    rows = read_json_lines(CORPORA / name)
    real = [r for r in rows if r["source"].startswith("model:")]
    assert len(rows) >= 200 and len(real) >= 100
    misses = []
    for row in rows:
        parsed = PARSERS[name](row)
        if (parsed.outcome, parsed.value) != (row["outcome"], row["value"]):
            misses.append((row["reply"][:80], row["outcome"], row["value"], parsed))
    agreement = 1 - len(misses) / len(rows)
    assert agreement >= 0.97, misses
    assert {miss[0] for miss in misses} == DOCUMENTED_MISSES[name], misses
    outcomes = {r["outcome"] for r in rows}
    assert {"answered", "unparsed", "refused"} <= outcomes
    for row in rows:  # the line format shared with tests/corpora/*.jsonl of other benchmarks
        assert {"reply", "label", "source", "note"} <= set(row)
        assert row["source"].split(":")[0] in {"model", "hand"}
