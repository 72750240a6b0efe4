"""BEADs few-shot classification: k examples per class drawn from the train split (§4.2.3,
Table A3: "Example Size (2 per class)"; Table 9's "FS (2)"), for every classification
subtask (bias, toxicity, sentiment).

The examples are drawn once per run, reproducibly: for each class in the subtask's label
order (bias: neutral, biased; toxicity: non-toxic, toxic; sentiment: negative, neutral,
positive), `k` rows sampled without replacement by ``random.Random("beads-shots:<seed>")``
from the train split's rows of that class (sorted by row number), then the drawn rows are
shuffled by the same generator so the classes alternate in no fixed pattern.

Prompts: for bias, Figure 3's instruction (prompt 1) with these examples in place of the
paper's three fixed ones. The paper prints no few-shot prompt for toxicity or sentiment (the
release's prompt files were never inspected, spec §2.5), so their instruction is App. A.1's
definitions of that one category, verbatim, with our one-line request for a label; the
examples and the item follow in Figure 3's ``Text: ... / Label:`` format.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from biasaudit.answers import LabelSet, read_label
from biasaudit.benchmarks.beads import parse, prompts
from biasaudit.errors import DataError

#: per subtask: gold label -> the word the prompt uses for it
DISPLAY = {
    "bias": {"neutral": "Non-Biased", "biased": "Biased"},
    "toxicity": {"non-toxic": "Non-toxic", "toxic": "Toxic"},
    "sentiment": {"negative": "Negative", "neutral": "Neutral", "positive": "Positive"},
}
#: per subtask: the train split the examples are drawn from (``-O shots_split=`` overrides)
TRAIN_SPLIT = {
    "bias": "1-Text_Classification/bias_train",
    "toxicity": "1-Text_Classification/toxic_train",
    "sentiment": "1-Text_Classification/sentiment_train",
}
INSTRUCTION = prompts.TEXT_CLASSIFICATION.split(" Examples.")[0]


def definitions(category: str) -> str:
    """App. A.1's definition lines of one category, verbatim from the annotation prompt."""
    block = prompts.CLASSIFICATION_ANNOTATION.split(f"- {category}:\n", 1)[1].split("\n")
    lines = itertools.takewhile(lambda line: line.startswith("  - "), block)
    return "\n".join([f"- {category}:", *lines])


INSTRUCTIONS = {
    "bias": INSTRUCTION,
    "toxicity": (
        "This task involves identifying toxicity in statements. Definitions:\n"
        f"{definitions('Toxicity')}\nReturn exactly one label: Toxic or Non-toxic."
    ),
    "sentiment": (
        "This task involves identifying sentiment in statements. Definitions:\n"
        f"{definitions('Sentiment')}\nReturn exactly one label: Positive, Neutral or Negative."
    ),
}
_TEMPLATE_BASE = {
    "bias": "beads/fig3-1-text-classification",
    "toxicity": "beads/appA1-toxicity-definitions",
    "sentiment": "beads/appA1-sentiment-definitions",
}
_LABEL_SETS = {
    "toxicity": LabelSet.of(("non-toxic", "toxic")),
    "sentiment": LabelSet.of(("negative", "neutral", "positive")),
}
#: the definitions' sentences ("The statement expresses positive feelings or opinions."): a
#: reply that recites them is read without them (they name every label)
_DEFINITION_SENTENCES = {
    subtask: [line.split(" - ")[-1] for line in definitions(category).split("\n")[1:]]
    for subtask, category in (("toxicity", "Toxicity"), ("sentiment", "Sentiment"))
}
#: a small model's invented next example ("Toxic\nText: ...\nLabel: ..."): only what comes
#: before it is the answer (as `parse.parse_label` does for bias)
_CONTINUATION = re.compile(r"\n\s*(?:text|passage|statement|sentence|example)\s*\d*\s*:", re.I)


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


def prompt(shots: Sequence[Shot], text: str, subtask: str = "bias") -> str:
    display = DISPLAY[subtask]
    examples = "\n".join(f"Text: {s.text}\nLabel: {display[s.label]}" for s in shots)
    return f"{INSTRUCTIONS[subtask]} Examples. {examples}\nText: {text}\nLabel:"


def template_id(k: int, seed: int, subtask: str = "bias") -> str:
    return f"{_TEMPLATE_BASE[subtask]}+{k}-per-class-from-train-seed{seed}"


def read_answer(text: str, subtask: str) -> parse.Parsed:
    """The label a few-shot reply commits to: bias by `parse.parse_label` (corpus-checked);
    toxicity and sentiment by the core label reader on the part before any invented next
    example ("Non-toxic" is never "toxic"; "not positive" of three labels is unparsed)."""
    if subtask == "bias":
        return parse.parse_label(text)
    head = _CONTINUATION.split(text, maxsplit=1)[0]
    for sentence in _DEFINITION_SENTENCES[subtask]:  # the instruction echoed back
        head = re.sub(re.escape(sentence.rstrip(".")) + r"\.?", " ", head, flags=re.I)
    reading = read_label(head, _LABEL_SETS[subtask])
    if reading.answered and reading.value:
        return parse.Parsed(parse.ANSWERED, reading.value)
    return parse.Parsed(parse.REFUSED if reading.outcome == "refused" else parse.UNPARSED)
