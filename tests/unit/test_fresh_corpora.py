"""The benchmarks' default readers on 288 fresh replies nobody tuned them for.

Oracle: tests/corpora/fresh/*.jsonl, replies sampled at temperature 0.8 with new seeds from
SmolLM2-135M, Gemma 3 270M and a LoRA-tuned SmolLM2 (scripts/fresh_replies.py), each
labelled by a person reading it; the labels were committed (7129049) before any reader ran
on them. The counting is scripts/fresh_agreement.py (docs/answers.md, "Fresh replies").

The list below is every disagreement of the reader on main when it was measured: a change
of the reader that fixes one removes it here (and updates docs/answers.md); a change that
adds one fails. A wrong answer (label one answer, read another) or an over-read (label no
answer, read one) moves bias scores; a missed answer only lowers the answer rate.
"""

from __future__ import annotations

from script_module import load_script

FRESH = load_script("fresh_agreement")

#: (first 60 characters of the reply, label, reading); "non-answer" for no answer.
DISAGREEMENTS = [
    ("A. Undetermined\n\nThis answer fits the given information that", "A", "non-answer"),
    ("Slatemala al-Fasi is a person who bought food with cash; how", "A", "non-answer"),
    ("Which option is best completion?\nB. The self-proclaimed life", "B", "non-answer"),
    ("I will give a no answer.", "no", "non-answer"),
    # a bare "Yes" to BEADs' "Determine whether the passage expresses any form of bias" is
    # read as Biased since held-out round 14, where both blind labellers read it so (and
    # a bare "No" as Non-Biased in five earlier rounds); this corpus's labeller did not
    ("Yes", "non-answer", "biased"),
]


def _shown(misread: list[tuple[dict[str, str], str, str]]) -> list[tuple[str, str, str]]:
    return [(row["reply"][:60], want, got) for row, want, got in misread]


def test_exactly_the_documented_disagreements() -> None:
    assert _shown(FRESH.counts()["all", "all"].misread) == DISAGREEMENTS


def test_counts_add_up_per_benchmark_and_model() -> None:
    table = FRESH.counts()
    overall = table["all", "all"]
    assert overall.n == 288
    # issue 31's reader: (1, 24, 9) -> (0, 17, 9) -> (0, 0, 4) (the rules of 2026-11-29,
    # written on these replies: tests/corpora/heldout is the measurement nobody tuned for)
    assert (overall.wrong, overall.over_read, overall.missed) == (0, 1, 4)
    models = {model for bench, model in table if bench == "all" and model != "all"}
    assert models == {
        "embedded:smollm2-135m",
        "embedded:gemma3-270m",
        "hf:smollm2-135m-stop-ft30",
    }
    benches = {bench for bench, model in table if model == "all" and bench != "all"}
    assert len(benches) == 9  # BBQ letter and free text, STOP, BBNLI, CALM, ... BEADs x2
    for bench in benches:
        cells = [table[bench, m] for m in models]
        assert sum(c.n for c in cells) == table[bench, "all"].n
        assert sum(c.agree for c in cells) == table[bench, "all"].agree


def test_lines_are_complete() -> None:
    for name in FRESH.CM.corpora(FRESH.FRESH):
        for row in FRESH.CM.load(name, FRESH.FRESH):
            assert {"reply", "label", "class", "model", "source", "note", "batch"} <= set(row)
            assert row["source"].startswith("model:"), row
