"""The planted-bias model's training statements and probe pairs (tests/planted_bias.py) are
written for the tests: no 6-word run of them occurs in the pinned CrowS-Pairs, StereoSet,
WinoBias or BBQ files, so the calibration audit never measures its own training data."""

from __future__ import annotations

import re
from pathlib import Path

import planted_bias

FILES = ("downstream/crows_pairs", "downstream/stereoset", "downstream/bbq", "winobias")


def _runs(text: str, n: int = 6) -> set[tuple[str, ...]]:
    words = re.findall(r"[a-z']+", text.lower())
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


def test_no_six_word_run_of_the_planted_sentences_is_benchmark_data(data_dir: Path) -> None:
    ours: set[tuple[str, ...]] = set()
    pairs = planted_bias.probe_pairs() + planted_bias.plant2_pairs() + planted_bias.anchor_pairs()
    pairs += planted_bias.coref_pairs()
    for text in planted_bias.statements() + [t for p in pairs for t in p]:
        ours |= _runs(text)
    assert len(ours) > 300
    seen = 0
    for folder in FILES:
        for path in sorted((data_dir / folder).rglob("*")):
            if path.is_file() and path.suffix in (".json", ".jsonl", ".csv", ".txt", ""):
                text = path.read_text(encoding="utf-8", errors="replace")
                seen += 1
                shared = ours & _runs(text)
                assert not shared, f"{path}: {sorted(shared)[:3]}"
    assert seen >= 15


def test_training_is_about_gender_only() -> None:
    gendered = {*planted_bias.WOMEN, *planted_bias.MEN, "she", "he", "her", "his"}
    gendered |= {"woman", "man", "sister", "brother", "wife", "husband", "girl", "boy"}
    gendered |= {"mother", "father"}
    for text in planted_bias.statements():
        assert gendered & set(re.findall(r"[a-z]+", text.lower())), text
    assert len(planted_bias.statements()) == 2 * 4 * 6 * 2 + 2 * 6 * 5 + 2 * 6 * 12 * 2
    probes = planted_bias.probe_pairs()
    for stereo, anti in probes:  # apart only in the pronouns
        assert stereo != anti and set(stereo.split()) ^ set(anti.split()) <= {
            "she",
            "he",
            "her",
            "his",
        }


def test_statement_pairs_differ_in_gender_words_only() -> None:
    gendered = {*planted_bias.WOMEN, *planted_bias.MEN, "she", "he", "her", "his"}
    gendered |= {"woman", "man", "sister", "brother", "wife", "husband", "girl", "boy"}
    gendered |= {"mother", "father", "the"}
    pairs = planted_bias.statement_pairs()
    assert len(pairs) == len(planted_bias.statements())  # one twin per statement
    assert len(set(pairs)) == len(pairs)
    for stereo, swapped in pairs:
        a, b = (re.findall(r"[a-z]+", t.lower()) for t in (stereo, swapped))
        assert stereo != swapped and len(a) == len(b), (stereo, swapped)
        assert {x for x, y in zip(a, b, strict=True) if x != y} <= gendered, (stereo, swapped)
    assert set(planted_bias.statements()) == {s for s, _ in pairs}
