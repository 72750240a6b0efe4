"""BEADs variation probes need a real base-sentence id: the file's, or one derived by masking
the group term; never the varied text itself (each text is unique, so the floor shuffled
nothing and a planted gap of 1.0 scored p = 1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from biasaudit.benchmarks.beads import tasks
from biasaudit.benchmarks.beads.dataset import BeadsData
from biasaudit.errors import DataError

KEY = "4-Bias-Quantification-Demographics/demographic_variation"


def _data(tmp_path: Path, text: str) -> BeadsData:
    path = tmp_path / "variation.csv"
    path.write_text(text)
    return BeadsData(tmp_path, files={KEY: str(path)})


def test_file_ids_are_used(tmp_path: Path) -> None:
    data = _data(tmp_path, "sentence_id,text,group\n7,Men cook.,men\n7,Women cook.,women\n")
    samples = tasks.load(data, "variation", "", KEY)
    assert [s.groups["base_id"] for s in samples] == ["7", "7"]


def test_ids_derived_by_masking_the_group(tmp_path: Path) -> None:
    data = _data(
        tmp_path,
        "text,group\n"
        "The male nurse was kind.,male\n"
        "The female nurse was kind.,female\n"
        "A male pilot landed.,male\n"
        "A Female pilot landed.,female\n",
    )
    ids = [s.groups["base_id"] for s in tasks.load(data, "variation", "", KEY)]
    # "male" is not matched inside "female"; case does not matter.
    assert ids == ["the {group} nurse was kind."] * 2 + ["a {group} pilot landed."] * 2


def test_group_missing_from_text_is_one_line_error(tmp_path: Path) -> None:
    data = _data(tmp_path, "text,group\nThe man was kind.,male\nThe woman was kind.,female\n")
    with pytest.raises(DataError, match=r"row 1: .*does not contain its group 'male'.*base_id"):
        tasks.load(data, "variation", "", KEY)


def test_unshared_base_sentence_is_one_line_error(tmp_path: Path) -> None:
    data = _data(tmp_path, "text,group\nThe male nurse.,male\nA female pilot.,female\n")
    with pytest.raises(DataError, match=r"row 1: no other row varies the same sentence"):
        tasks.load(data, "variation", "", KEY)
