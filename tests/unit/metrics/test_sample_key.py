"""The one key reader (metrics.keys.sample_key): groups first, then data, "a+b" joined; a
missing key is a KeyError, or the default the bias profile asks for (issue 30: one stack)."""

from __future__ import annotations

import pytest

from biasaudit.metrics.keys import sample_key
from biasaudit.results.schema import SampleRecord


def _record() -> SampleRecord:
    return SampleRecord(
        benchmark="b", sample_id="s1", sample_hash="h", groups={"g": "x", "both": "grp"},
        data={"d": 3, "both": "data"}, exchanges=[], outcomes=[],
    )  # fmt: skip


def test_groups_then_data_then_joined() -> None:
    record = _record()
    assert sample_key(record, "g") == "x"
    assert sample_key(record, "d") == "3"
    assert sample_key(record, "both") == "grp"  # the group wins over the data field
    assert sample_key(record, "g+d") == "x/3"


def test_a_missing_key_raises_unless_a_default_is_given() -> None:
    record = _record()
    with pytest.raises(KeyError, match="sample s1 has no group or data field 'nope'"):
        sample_key(record, "nope")
    assert sample_key(record, "nope", "") == ""
    assert sample_key(record, "g+nope", "?") == "x/?"
