"""Issue 31's metamorphic rules (scripts/answer_metamorphic.py): no labels needed, the
reader's own reading of a reply predicts its reading of the changed reply. Every rule holds
on every reply of every corpus; the generated negations and translations hold in English,
Spanish, French, German and Chinese."""

from __future__ import annotations

import pytest

from script_module import load_script

META = load_script("answer_metamorphic")
CORPORA = META.corpora()


def test_a_negation_flips_or_abstains_and_translations_agree() -> None:
    tallies = META.generated()
    assert tallies["negation"].n == sum(len(p) for p in META.NEGATION_PAIRS.values())
    for rule, tally in tallies.items():
        assert not tally.broken, (rule, tally.broken)


@pytest.mark.parametrize("name", sorted(CORPORA))
def test_corpus_rules_hold(name: str) -> None:
    for rule, tally in META.corpus_rules(CORPORA[name]).items():
        assert not tally.broken, (rule, tally.broken)


def test_the_rules_reach_every_reader() -> None:
    # the corpus rules ran on yes/no, choice and label replies (not vacuous)
    rows = CORPORA["adversarial31"]
    tallies = META.corpus_rules(rows)
    assert tallies["cant_tell_appended"].n >= 100
    assert tallies["discussion_first"].n >= 100
    assert tallies["option_list"].n >= 5
    kinds = {row.get("benchmark", row["kind"]) for row in rows}
    assert {"stop", "bbnli", "choice", "calm_nli3", "calm_sentiment", "beads"} <= kinds


def test_a_broken_rule_is_reported() -> None:
    # the check can fail: a reply whose reading ignores the appended "can't tell" would
    # break cant_tell_appended; here the rule is applied to a row declared without an
    # unknown option, where "Actually, I can't tell." must abstain, and it does
    row = {"kind": "yesno", "reply": "Yes.", "label": "yes", "class": "x", "source": "t"}
    tally = META.corpus_rules([row])["cant_tell_appended"]
    assert (tally.n, tally.holds) == (1, 1)
    tally = META.Tally()
    tally.add("r", False, "yes", "no")
    assert tally.broken == [("r", "yes", "no")]
