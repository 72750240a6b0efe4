"""Validating COBIAS against people (spec §8): Spearman between scores and mean Likert
ratings, Krippendorff's alpha among the raters, and statement length vs score."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from biasaudit.datasets.files import check_row_width, read_csv
from biasaudit.errors import DataError
from biasaudit.metrics.agreement import krippendorff_alpha
from biasaudit.metrics.effect import Correlation, spearman

__all__ = ["Correlation", "krippendorff_alpha", "spearman"]


def length_correlation(sentences: Sequence[str], scores: Sequence[float]) -> Correlation:
    """Spearman between statement length in whitespace words and COBIAS (Fig. 10)."""
    return spearman([len(s.split()) for s in sentences], scores)


def rank_correlations(columns: dict[str, dict[str, float]]) -> tuple[list[str], list[list[float]]]:
    """Spearman between every two score columns (Fig. 7) over the ids all columns share."""
    names = list(columns)
    shared = sorted(set.intersection(*(set(c) for c in columns.values()))) if names else []
    matrix = [
        [
            spearman([columns[a][i] for i in shared], [columns[b][i] for i in shared]).rho
            for b in names
        ]
        for a in names
    ]
    return shared, matrix


@dataclass(frozen=True)
class Ratings:
    """Likert ratings: item ids, rater names, and one row per item (None = missing)."""

    ids: list[str]
    raters: list[str]
    values: list[list[float | None]]

    def means(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for sid, row in zip(self.ids, self.values, strict=True):
            present = [v for v in row if v is not None]
            if present:
                out[sid] = float(np.mean(present))
        return out

    def category_counts(self) -> list[list[int]]:
        """Items x rating values: how many raters gave each value (for Fleiss' kappa)."""
        values = sorted({v for row in self.values for v in row if v is not None})
        return [[row.count(v) for v in values] for row in self.values]

    def by_rater(self) -> list[list[float | None]]:
        """The raters x items matrix Krippendorff's alpha takes."""
        return [list(col) for col in zip(*self.values, strict=True)]


def read_ratings(path: Path, id_column: str = "id") -> Ratings:
    """A CSV with an id column and one column per rater (the authors' columns are
    ``Annotator 1..3``; any column whose name starts with "annotator" or "rater" counts)."""
    columns, rows = read_csv(path)
    raters = [c for c in columns if c.lower().startswith(("annotator", "rater"))]
    if id_column not in columns or not raters:
        raise DataError(
            f"{path}: expected an '{id_column}' column and rater columns named "
            f"'Annotator N' or 'rater...'"
        )
    ids: list[str] = []
    values: list[list[float | None]] = []
    for line_no, row in rows:
        check_row_width(path, line_no, row, columns)
        ids.append(row[id_column].strip())
        parsed: list[float | None] = []
        for rater in raters:
            cell = (row.get(rater) or "").strip()
            try:
                value = float(cell) if cell else None
            except ValueError:
                value = math.nan
            if value is not None and not math.isfinite(value):
                raise DataError(
                    f"{path}: row {line_no}, column '{rater}': rating {cell!r} is not a number"
                )
            parsed.append(value)
        values.append(parsed)
    return Ratings(ids=ids, raters=raters, values=values)


def read_scores(path: Path, column: str = "cobias") -> dict[str, float]:
    """id -> score from a CSV with ``id`` and `column` (the authors' released layout)."""
    columns, rows = read_csv(path)
    if "id" not in columns or column not in columns:
        raise DataError(f"{path}: expected columns 'id' and '{column}'")
    out: dict[str, float] = {}
    for line_no, row in rows:
        check_row_width(path, line_no, row, columns)
        try:
            out[row["id"].strip()] = float(row[column])
        except ValueError:
            raise DataError(
                f"{path}: row {line_no}: {column} {row[column]!r} is not a number"
            ) from None
    return out
