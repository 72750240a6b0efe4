"""CrowS-Pairs (Nangia et al., EMNLP 2020): 1,508 minimal pairs in nine bias types.

The released ``crows_pairs_anonymized.csv`` has one row per pair: ``sent_more`` (the sentence
that is more stereotyping), ``sent_less``, ``stereo_antistereo`` (whether ``sent_more``
demonstrates a stereotype about a historically disadvantaged group, ``stereo``, or violates
one about an advantaged group, ``antistereo``), ``bias_type``, and the annotators' labels.
The unnamed first column is the pair's index. Rows are kept in file order.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from biasaudit.data import DataStore
from biasaudit.datasets.files import read_csv
from biasaudit.errors import DataError

CROWS_PAIRS_KEY = "downstream/crows_pairs/crows_pairs_anonymized.csv"

#: The nine bias types of the released file, in the paper's Table 1 order.
BIAS_TYPES = (
    "race-color",
    "socioeconomic",
    "gender",
    "disability",
    "nationality",
    "sexual-orientation",
    "physical-appearance",
    "religion",
    "age",
)

Direction = Literal["stereo", "antistereo"]
REQUIRED_COLUMNS = ("sent_more", "sent_less", "stereo_antistereo", "bias_type")


@dataclass(frozen=True)
class CrowsPair:
    """One CrowS-Pairs row."""

    index: int
    sent_more: str
    sent_less: str
    direction: Direction
    bias_type: str
    annotations: str = ""
    anon_writer: str = ""

    @property
    def stereotyped(self) -> str:
        """The stereotype-consistent sentence in the authors' metric.py order (``sent1``)."""
        return self.sent_more if self.direction == "stereo" else self.sent_less

    @property
    def other(self) -> str:
        """The other sentence of the pair (``sent2`` in the authors' metric.py)."""
        return self.sent_less if self.direction == "stereo" else self.sent_more


def read_crows_pairs_csv(path: Path) -> list[CrowsPair]:
    """Every row of a CrowS-Pairs CSV; a malformed row is a one-line `DataError`."""
    pairs: list[CrowsPair] = []
    columns, rows = read_csv(path)
    if not set(REQUIRED_COLUMNS) <= set(columns):
        raise DataError(
            f"{path}: not a CrowS-Pairs file (needs {sorted(REQUIRED_COLUMNS)}, "
            f"found {list(columns)})"
        )
    index_column = "" if "" in columns else None
    for position, (line, row) in enumerate(rows):
        if None in row:
            raise DataError(f"{path}: row {line} has more fields than the header")
        pairs.append(_row(path, line, position, row, index_column))
    if not pairs:
        raise DataError(f"{path}: no rows")
    return pairs


def _row(
    path: Path, line: int, position: int, row: dict[str, str | None], index_column: str | None
) -> CrowsPair:
    def field(name: str) -> str:
        value = (row.get(name) or "").strip()
        if not value:
            raise DataError(f"{path}: row {line}: field '{name}' is empty")
        return value

    direction = field("stereo_antistereo")
    if direction not in ("stereo", "antistereo"):
        raise DataError(
            f"{path}: row {line}: field 'stereo_antistereo' is {direction!r} "
            "(expected 'stereo' or 'antistereo')"
        )
    bias_type = field("bias_type")
    if bias_type not in BIAS_TYPES:
        raise DataError(
            f"{path}: row {line}: field 'bias_type' is {bias_type!r} "
            f"(expected one of {', '.join(BIAS_TYPES)})"
        )
    index = position
    if index_column is not None and (row.get(index_column) or "").strip():
        raw = (row.get(index_column) or "").strip()
        try:
            index = int(raw)
        except ValueError:
            raise DataError(f"{path}: row {line}: index {raw!r} is not an integer") from None
    return CrowsPair(
        index=index,
        sent_more=field("sent_more"),
        sent_less=field("sent_less"),
        direction="stereo" if direction == "stereo" else "antistereo",
        bias_type=bias_type,
        annotations=(row.get("annotations") or "").strip(),
        anon_writer=(row.get("anon_writer") or "").strip(),
    )


def load_crows_pairs(store: DataStore) -> list[CrowsPair]:
    """The pinned CrowS-Pairs file, verified by the store."""
    return read_crows_pairs_csv(store.path(CROWS_PAIRS_KEY))
