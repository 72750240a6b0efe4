"""Loading and validating STOP files: the release and hand-made malformed fixtures."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from biasaudit.benchmarks.stop.data import (
    FULL_KEY,
    QUESTION,
    SUB_DEMOGRAPHICS,
    UnknownLabelWarning,
    filter_progressions,
    has_question,
    load_progressions,
    stratified_sample,
    with_question,
)
from biasaudit.data import DataStore
from biasaudit.errors import DataError
from hostile_inputs import STOP_ENTRY


def entry(**overrides: Any) -> dict[str, Any]:
    base = STOP_ENTRY | {"cfprompt": "A reason. Does this justify it?", "severity": "moderate"}
    return base | overrides


def write(tmp_path: Path, entries: Any) -> Path:
    path = tmp_path / "stop.json"
    path.write_text(json.dumps(entries), encoding="utf-8")
    return path


def test_release_loads_with_expected_structure(store: DataStore) -> None:
    progressions = load_progressions(store.path(FULL_KEY))
    assert len(progressions) == 450
    assert Counter(p.severity for p in progressions) == {"low": 90, "moderate": 270, "high": 90}
    subs = Counter((p.demographic, p.sub_demographic) for p in progressions)
    assert len(subs) == 45 and set(subs.values()) == {10}
    assert {d for d, _ in subs} == set(SUB_DEMOGRAPHICS)
    # 90 seed blocks, each one severity and one demographic, each label once
    assert len({p.seed_id for p in progressions}) == 90
    for seed in range(90):
        block = [p for p in progressions if p.seed_id == seed]
        assert len({(p.severity, p.demographic) for p in block}) == 1
        assert len(block) == len(SUB_DEMOGRAPHICS[block[0].demographic])
    assert all(has_question(s) for p in progressions for s in p.prompts)
    carlos = [p for p in progressions if "Carlos walks into a convenience store" in p.prompts[0]]
    assert carlos and carlos[0].severity == "moderate"
    assert carlos[0].ideal_answers == ("yes", "no", "no", "no", "no")


def test_question_suffix_variants_are_recognised_and_never_doubled() -> None:
    for suffix in ("Yes or No.", "Yes or no.", "Yes or No"):
        sentence = f"Sam waves. Is this situation appropriate? {suffix}"
        assert has_question(sentence)
        assert with_question(sentence) == sentence
    assert with_question("Sam waves.") == f"Sam waves. {QUESTION}"


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ({"not": "a list"}, "expected a JSON list"),
        (
            [entry(prompts=["a? Is this situation appropriate? Yes or No."] * 4)],
            "entry 0, field 'prompts'",
        ),
        ([entry(), entry(severity="extreme")], "entry 1, field 'severity'"),
        (
            [{k: v for k, v in entry().items() if k != "cfprompt"}],
            "entry 0, field 'cfprompt': missing",
        ),
        ([entry(prompts=[*entry()["prompts"][:4], "No question here."])], "field 'prompts[4]'"),
        ([entry(prompts=[*entry()["prompts"][:4], 5])], "field 'prompts[4]'"),
        ([entry(), entry()], "entry 1: duplicate of entry 0"),
        ([entry(**{"m_score": 0.5})], "field 'm_score'"),
        ([entry(**{"m_score": "0.4"})], "field 'm_score'"),
    ],
)
def test_malformed_files_name_file_entry_and_field(
    tmp_path: Path, entries: Any, message: str
) -> None:
    path = write(tmp_path, entries)
    with pytest.raises(DataError, match=re.escape(message)) as info:
        load_progressions(path)
    assert str(path) in str(info.value)


def test_invalid_json_and_encoding(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[{", encoding="utf-8")
    with pytest.raises(DataError, match="invalid JSON at line 1"):
        load_progressions(bad)
    latin = tmp_path / "latin.json"
    latin.write_bytes(
        json.dumps([entry(cfprompt="caf\u00e9")]).encode().replace(b"\\u00e9", b"\xe9")
    )
    with pytest.raises(DataError, match="not UTF-8"):
        load_progressions(latin)
    with pytest.raises(DataError, match="cannot read"):
        load_progressions(tmp_path / "missing.json")


def test_unknown_labels_warn_and_load(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        [entry(demographic="sex_orientation"), entry(sub_demographic="teen", cfprompt="x")],
    )
    with pytest.warns(UnknownLabelWarning) as caught:
        progressions = load_progressions(path)
    messages = [str(w.message) for w in caught]
    assert any("entry 0: unknown demographic 'sex_orientation'" in t for t in messages)
    assert any("entry 1: unknown sub_demographic 'teen' for 'age'" in t for t in messages)
    assert [p.demographic for p in progressions] == ["sex_orientation", "age"]


def test_append_question_for_custom_data(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        [
            entry(
                prompts=["Sam waves."] * 4
                + ["Sam leaves. Is this situation appropriate? Yes or no."]
            )
        ],
    )
    progression = load_progressions(path, append_question=True)[0]
    assert progression.prompts[0] == f"Sam waves. {QUESTION}"
    assert progression.prompts[4] == "Sam leaves. Is this situation appropriate? Yes or no."


def test_labelled_fields(store: DataStore) -> None:
    progressions = load_progressions(store.path("stop/STOP-full-labelled.json"))
    assert len(progressions[0].model_scores) == 10
    assert progressions[0].model_cf["meta-llama/Llama-2-7b-chat-hf"] == "Thank you for sharing"
    assert [p.index for p in progressions if not p.model_scores] == [312, 314, 331]


def test_filters_and_stratified_sample(store: DataStore) -> None:
    progressions = load_progressions(store.path(FULL_KEY))
    chosen = filter_progressions(progressions, severity=["high"], demographic=["religion"])
    assert len(chosen) == 14
    assert (
        len(
            filter_progressions(
                progressions, sub_demographic=["islam"], seed_id=[chosen[0].seed_id]
            )
        )
        == 1
    )
    sample = stratified_sample(progressions, 100, seed=3)
    assert Counter(p.severity for p in sample) == {"low": 20, "moderate": 60, "high": 20}
    assert sample == stratified_sample(progressions, 100, seed=3)
    assert [p.index for p in sample] == sorted(p.index for p in sample)
    odd = stratified_sample(progressions, 7, seed=0)
    assert len(odd) == 7
    with pytest.raises(DataError):
        stratified_sample(progressions, 451, seed=0)
