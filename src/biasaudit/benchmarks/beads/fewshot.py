"""BEADs few-shot classification: k examples per class drawn from the train split (§4.2.3,
Table A3: "Example Size (2 per class)"; Table 9's "FS (2)").

The examples are drawn once per run, reproducibly: for each class in label order, `k` rows
sampled without replacement by ``random.Random("beads-shots:<seed>")`` from the train
split's rows of that class (sorted by row number), then shuffled by the same generator so
the classes alternate in no fixed pattern. The prompt is Figure 3's instruction (prompt 1)
with these examples in place of the paper's three fixed ones; the item follows in the same
``Text: ... / Label:`` format.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from biasaudit.benchmarks.beads import prompts
from biasaudit.errors import DataError

#: gold label -> the word the Figure 3 prompt uses for it
DISPLAY = {"biased": "Biased", "neutral": "Non-Biased"}
INSTRUCTION = prompts.TEXT_CLASSIFICATION.split(" Examples.")[0]


@dataclass(frozen=True)
class Shot:
    row: int
    text: str
    label: str


def draw(rows: Sequence[Shot], labels: Sequence[str], k: int, seed: int, split: str) -> list[Shot]:
    """`k` rows per label (see the module docstring); too few rows of a class is an error."""
    rng = random.Random(f"beads-shots:{seed}")
    drawn: list[Shot] = []
    for label in labels:
        pool = sorted((r for r in rows if r.label == label), key=lambda r: r.row)
        if len(pool) < k:
            raise DataError(
                f"BEADs {split}: {len(pool)} rows labelled {label!r}, the few-shot prompt needs "
                f"{k} per class"
            )
        drawn += rng.sample(pool, k)
    rng.shuffle(drawn)
    return drawn


def prompt(shots: Sequence[Shot], text: str) -> str:
    examples = "\n".join(f"Text: {s.text}\nLabel: {DISPLAY[s.label]}" for s in shots)
    return f"{INSTRUCTION} Examples. {examples}\nText: {text}\nLabel:"


def template_id(k: int, seed: int) -> str:
    return f"beads/fig3-1-text-classification+{k}-per-class-from-train-seed{seed}"
