"""The base sentence of each demographic-variation row (BEADs §5.3, Fig. 9).

The variation probe varies one neutral sentence over demographic groups; its metrics
cluster the bootstrap by base sentence and shuffle group labels within one base sentence for
the noise floor. That needs a real base-sentence id. The file's id column (`base_id`, alias
`sentence_id` / `id` / `original_id`) is used when present. Without one, the id is derived by
masking the row's group term in its text ("The male nurse ..." and "The female nurse ..." both
become "the {group} nurse ..."); a row whose text does not contain its group, or whose masked
text no other row shares, is a one-line error. The sentence text itself is never the id: each
varied text is unique, so every "base sentence" would hold one row and one group, and the
floor would shuffle nothing (a planted gap of 1.0 scored p = 1).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from biasaudit.benchmarks.beads.dataset import Row
from biasaudit.errors import DataError

HINT = "add a base-sentence id column (base_id, sentence_id, id or original_id)"


def _masked(row: Row) -> str:
    group = str(row["group"]).strip()
    text = str(row["text"])
    pattern = re.compile(rf"(?<!\w){re.escape(group)}(?!\w)", re.IGNORECASE)
    masked, found = pattern.subn("{group}", text)
    if not group or not found:
        raise DataError(
            f"{row.file}: row {row.row}: no base-sentence id and the text does not contain "
            f"its group {group!r}, so none can be derived; {HINT}"
        )
    return " ".join(masked.lower().split())


def base_ids(rows: Sequence[Row]) -> list[str]:
    """One base-sentence id per row: the file's id, else the text with its group masked."""
    if all(row.get("base_id") is not None for row in rows):
        return [str(row["base_id"]) for row in rows]
    missing = next(row for row in rows if row.get("base_id") is None)
    if any(row.get("base_id") is not None for row in rows):
        raise DataError(f"{missing.file}: row {missing.row}: the base-sentence id is empty")
    derived = [_masked(row) for row in rows]
    counts = Counter(derived)
    for row, base in zip(rows, derived, strict=True):
        if counts[base] < 2:
            raise DataError(
                f"{row.file}: row {row.row}: no other row varies the same sentence once its "
                f"group {row['group']!r} is masked, so no base-sentence id can be derived; {HINT}"
            )
    return derived
