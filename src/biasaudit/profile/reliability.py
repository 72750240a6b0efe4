"""A statement-rating benchmark as a reliability filter of other benchmarks' cells.

Declared, not named: a benchmark whose profile has ``rates_statements`` (COBIAS) filters the
cells of benchmarks whose profile has ``statement_keys`` (CrowS-Pairs, StereoSet).
COBIAS (Govil et al. 2024) scores how much a statement's bias reading depends on missing
context. Its statements come from CrowS-Pairs and StereoSet (COBIAS's DATASET.csv:
``original_dataset`` cs / ss), so a COBIAS run and a CrowS-Pairs / StereoSet run in the same
folder can be joined on the statement text (lower-cased, whitespace collapsed). Reliable:
a COBIAS score at or above the median of the run's statements, reading the scale as §4.3
of the paper does (higher = better contextual reliability; docs/benchmarks/cobias.md
explains that the paper also reads it the other way, Fig. 2). A cell is then recomputed on
the pairs / items whose statement is reliable and shown beside the full-set cell; it is
descriptive (its p-value is not part of the FDR family).
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from biasaudit.results.schema import SampleRecord


def norm(text: Any) -> str:
    if isinstance(text, list):  # StereoSet keeps [sentence id, text]
        text = text[-1] if text else ""
    return re.sub(r"\s+", " ", str(text)).strip().lower()


def reliable_statements(
    records: Sequence[SampleRecord], text_key: str, score_key: str
) -> tuple[set[str], set[str], float | None]:
    """(reliable statement texts, every scored statement text, the median threshold)."""
    scored = [
        (norm(r.data.get(text_key, "")), float(r.scores[score_key]))
        for r in records
        if not r.excluded and r.scores.get(score_key) is not None
    ]
    if not scored:
        return set(), set(), None
    threshold = statistics.median(score for _, score in scored)
    return {t for t, s in scored if s >= threshold}, {t for t, _ in scored}, threshold


def statement_texts(record: SampleRecord, keys: Sequence[str]) -> set[str]:
    return data_statements(record.data, keys)


def data_statements(data: Mapping[str, Any], keys: Sequence[str]) -> set[str]:
    """The normalised statements of one sample's data (`keys`: its profile's statement_keys).

    A StereoSet intersentence item's statement may also be read as context + sentence; the
    released COBIAS statements of StereoSet origin are all intrasentence sentences (2,289 of
    COBIAS.csv's 2,291 statements match a CrowS-Pairs or StereoSet sentence as is,
    tests/unit/profile/test_statement_join.py), so the second reading only widens the join."""
    texts = {norm(data.get(k, "")) for k in keys}
    context = norm(data.get("context", ""))
    if context:
        texts |= {f"{context} {t}" for t in texts}
    return texts - {""}
