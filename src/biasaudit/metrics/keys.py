"""Labels of a sample under a grouping key, and the gap / ratio of a breakdown's groups."""

from __future__ import annotations

from collections.abc import Sequence

from biasaudit.results.schema import GroupValue, SampleRecord


def sample_key(record: SampleRecord, key: str, default: str | None = None) -> str:
    """A grouping / cluster / stratum label: from the sample's groups, else its data.

    ``"a+b"`` is the combination of two keys, labelled ``"<a>/<b>"``. A key the sample lacks
    is a KeyError, or `default` when one is given (the bias profile reads optional keys so).
    """
    if "+" in key:
        return "/".join(sample_key(record, part, default) for part in key.split("+"))
    if key in record.groups:
        return record.groups[key]
    if key in record.data:
        return str(record.data[key])
    if default is not None:
        return default
    raise KeyError(f"sample {record.sample_id} has no group or data field '{key}'")


def gap_ratio(groups: Sequence[GroupValue]) -> tuple[float | None, float | None]:
    """max - min and min / max over the groups' values (None, None with fewer than two)."""
    present = [g.value for g in groups if g.value is not None]
    if len(present) < 2:
        return None, None
    gap = max(present) - min(present)
    ratio = min(present) / max(present) if max(present) > 0 else None
    return gap, ratio
