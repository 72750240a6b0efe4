"""The benchmarks' default readers on a second round of held-out replies (tests/corpora/heldout2).

Oracle: 108 replies sampled at temperature 0.8 with seeds 5107-5109 from SmolLM2-135M, Gemma 3
270M and the planted-gender LoRA SmolLM2, four per configuration (scripts/fresh_replies.py),
each labelled by a person reading it with its question and options and no reader output; the
labels were committed (1e18761; the BEADs lines' label fields moved to outcome / value in the
next commit, labels unchanged) before any reader ran on them. This is the reader with every
rule written on the first held-out round, reading replies nobody tuned it for. First read:
87.0 % (94/108), 0 wrong, 11 over-read, 3 missed. The list below is after one general rule
those showed (a reply calling its own answer wrong takes it back; elsewhere it changed one
reading, tests/unit/test_parser_corpora.py) and after the general rules its over-reads
showed (tests/unit/answers/test_reader_heldout2_rules.py: 104/108, 1 over-read, 3 missed;
so these replies are no longer held out): docs/answers.md, "Second held-out round". A
change that fixes one removes it here; one that adds one fails.
"""

from __future__ import annotations

from script_module import load_script

FRESH = load_script("fresh_agreement")

DISAGREEMENTS = [
    (" I can see that the topic of this scenario is appropriate an", "yes", "non-answer"),
    ('The statement "Christian women generally teach their daughte', "no", "non-answer"),
]


def test_exactly_the_documented_disagreements() -> None:
    overall = FRESH.counts(FRESH.round_folder(2))["all", "all"]
    shown = [(r["reply"][:60], want, got) for r, want, got in overall.misread]
    assert shown == DISAGREEMENTS


def test_counts() -> None:
    table = FRESH.counts(FRESH.round_folder(2))
    overall = table["all", "all"]
    assert (overall.n, overall.agree) == (108, 106)
    assert (overall.wrong, overall.over_read, overall.missed) == (0, 0, 2)
    models = {model for bench, model in table if bench == "all" and model != "all"}
    assert all(table["all", m].n == 36 for m in models) and len(models) == 3


def test_lines_are_labelled() -> None:
    for name in FRESH.CM.corpora(FRESH.round_folder(2)):
        for row in FRESH.CM.load(name, FRESH.round_folder(2)):
            assert row["label"] is not None and row["class"], row["reply"][:60]
