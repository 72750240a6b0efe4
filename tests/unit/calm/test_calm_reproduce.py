"""Generation against the released zips and gt CSVs, and `biasaudit reproduce calm`."""

from __future__ import annotations

import pytest

from biasaudit.benchmarks.calm.reproduce import EXPECTED_SPLITS, TABLE8, reproduce
from biasaudit.data import DataStore
from biasaudit.reproduce import Reproduction


@pytest.fixture(scope="module")
def reproduction(store: DataStore) -> Reproduction:
    return reproduce(store)


def test_all_checks_pass(reproduction: Reproduction) -> None:
    failed = [c for c in reproduction.checks if not c.passed]
    assert not failed, failed
    assert len(reproduction.checks) == 56


@pytest.mark.parametrize(("task", "attribute"), list(EXPECTED_SPLITS))
def test_each_split_is_the_released_one(
    reproduction: Reproduction, task: str, attribute: str
) -> None:
    rows = {r[0]: r for r in reproduction.tables["splits"].rows}
    _, templates, generated, released, gt_rows, identical, gold_equal = rows[f"{task}_{attribute}"]
    expected = EXPECTED_SPLITS[(task, attribute)]
    assert generated == released == gt_rows == identical == gold_equal == expected
    assert expected == templates * (150 if attribute == "gender" else 200)


def test_total_is_78400(reproduction: Reproduction) -> None:
    assert sum(r[2] for r in reproduction.tables["splits"].rows) == 78_400


def test_table8_inconsistent_rows_are_the_known_three(reproduction: Reproduction) -> None:
    assert len(TABLE8) == 20
    assert "Llama-2-70B, OPT-30B, T0 (11B)" in reproduction.notes[0]
