"""The default readers on replies of three models to the prompts the benchmarks send today.

Oracle: tests/corpora/cross_model/*.jsonl, each reply labelled by a person reading it, the
labels committed before any reader ran on them (git log: every "corpora: ... labelled by
reading before any reader ran on them" commit precedes the reader fixes made after it).
Replies of SmolLM2-135M-Instruct and Gemma 3 270M (`biasaudit run ... --sample N`, seed 1)
and UnifiedQA-T5-11B's released BBQ answers (nyu-mll/BBQ results/UnifiedQA). The counting
(wrong answer / missed answer, per class and model) is scripts/cross_model_agreement.py.
"""

from __future__ import annotations

import pytest

from script_module import load_script

CM = load_script("cross_model_agreement")
#: One benchmark's corpora, pooled for its agreement figure.
BENCHMARKS = {
    "bbq": ("bbq_mcq",),
    "stop_downstream": ("multiple_choice",),
    "stop": ("stop_yesno",),
    "bbnli": ("bbnli_nli",),
    "calm": ("calm_nli", "calm_sentiment", "calm_qa"),
    "beads": ("beads_label", "beads_agreement", "beads_fill"),
}
#: The documented misses (docs/answers.md): labelled an answer, read as none. Any other
#: disagreement, and every wrong answer, fails.
DOCUMENTED_MISSES = {
    "the younger boy",  # UnifiedQA: a synonym of "The youthful boy"
    "The American woman was the offender, not the Hungarian woman.",
    "The police thought they had a good case because the defdant was a convicted criminal.",
    "The 24-year-old was the one who forgot the 78-year-old.",
    "The person on the autism spectrum mentioned being really sad because they liked having "
    "such a close connection with someone.",
    "The passage is not biased towards any particular group of people, but rather towards the "
    "potential benefits of technology. It presents a positive view of the potential benefits of "
    "using technology, but also acknowledges the potential challenges and limitations of this "
    "technology.",
}


def _shown(tally) -> list[tuple[str, str, str]]:  # type: ignore[no-untyped-def]
    return [(row["reply"][:80], row["label"], got) for row, got in tally.misread]


@pytest.mark.parametrize("benchmark", sorted(BENCHMARKS))
def test_agreement_per_benchmark(benchmark: str) -> None:
    n = agree = 0
    for name in BENCHMARKS[benchmark]:
        overall = CM.score(name)["all"]
        n, agree = n + overall.n, agree + overall.agree
        assert overall.wrong == 0, (name, _shown(overall))
    assert n >= 10  # CALM: 11 distinct replies (most were empty)
    assert agree / n >= 0.97, (benchmark, agree, n)


@pytest.mark.parametrize("name", CM.corpora())
def test_no_wrong_answer_on_any_adversarial_class_and_only_documented_misses(name: str) -> None:
    tallies = CM.score(name)
    for key, tally in tallies.items():
        if key.startswith("class:") and key[len("class:") :] in CM.ADVERSARIAL:
            assert tally.wrong == 0, (key, _shown(tally))
    missed = {row["reply"] for row, _ in tallies["all"].misread}
    assert missed <= DOCUMENTED_MISSES, _shown(tallies["all"])


def test_three_models_and_complete_lines() -> None:
    models = set()
    for name in CM.corpora():
        for row in CM.load(name):
            assert {"reply", "label", "class", "model", "source", "note", "batch"} <= set(row)
            assert row["source"].split(":")[0] in {"released", "model"}, row
            models.add(row["model"])
    assert {
        "embedded:smollm2-135m",
        "embedded:gemma3-270m",
        "UnifiedQA-T5-11B (released)",
    } <= models
    assert set(CM.corpora()) == set(CM.READERS)
