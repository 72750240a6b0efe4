"""`biasaudit reproduce bbq`: the release's row counts and the derived biased-answer labels.

Expected values: rows per category from Parrish et al. 2022 (Table 4, 58,492 in all), and the
16 rows without a target from the authors' BBQ_results_metadata.R (line 140: "should come back
as 0, is actually 16"; their bias-score script drops them, line 119).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from biasaudit.analysis import AnalysisResult, Check, reproduction
from biasaudit.data import DataStore
from biasaudit.datasets.bbq import BBQ_CATEGORIES, BBQItem, load_bbq_metadata
from biasaudit.results.schema import Table

#: Parrish et al. 2022, Table 4.
PAPER_COUNTS: dict[str, int] = {
    "Age": 3680,
    "Disability_status": 1556,
    "Gender_identity": 5672,
    "Nationality": 3080,
    "Physical_appearance": 1576,
    "Race_ethnicity": 6880,
    "Race_x_SES": 11160,
    "Race_x_gender": 15960,
    "Religion": 1200,
    "SES": 6864,
    "Sexual_orientation": 864,
}
R_EXCLUDED = 16


def reproduce(store: DataStore) -> AnalysisResult:
    items, metas = load_bbq_metadata(store)
    return summarise(items, len(metas))


def summarise(items: Sequence[BBQItem], n_metadata_rows: int) -> AnalysisResult:
    """The checks and tables of `reproduce` from the loaded items (and R's metadata row count)."""
    by_category = Counter(i.category for i in items)
    checks = [Check(f"rows {c}", PAPER_COUNTS[c], by_category.get(c, 0)) for c in BBQ_CATEGORIES]
    checks.append(Check("rows total", sum(PAPER_COUNTS.values()), len(items)))
    excluded = [i for i in items if i.target_loc is None]
    checks.append(Check("rows without a target (R: 'is actually 16')", R_EXCLUDED, len(excluded)))
    checks.append(
        Check(
            "category of the rows without a target",
            "Gender_identity",
            ",".join(sorted({i.category for i in excluded})) or None,
        )
    )
    rows = []
    for category in BBQ_CATEGORIES:
        members = [i for i in items if i.category == category]
        targets = Counter(i.target_loc for i in members)
        rows.append(
            [
                category,
                len(members),
                sum(i.context_condition == "ambig" for i in members),
                sum(i.label_type == "name" for i in members),
                targets.get(0, 0),
                targets.get(1, 0),
                targets.get(2, 0),
                targets.get(None, 0),
            ]
        )
    table = Table(
        description="rows per category and the derived biased option (target_loc)",
        columns=["category", "rows", "ambiguous", "name proxies", "t=0", "t=1", "t=2", "none"],
        rows=rows,
    )
    listing = Table(
        description="the rows without a target (dropped from bias scores, kept for accuracy)",
        columns=["category", "example_id", "question_index", "options (answer_info)"],
        rows=[
            [
                i.category,
                i.example_id,
                i.question_index,
                "; ".join(i.answer_info[f"ans{k}"][1] for k in range(3)),
            ]
            for i in excluded
        ],
    )
    return AnalysisResult(
        benchmark="bbq",
        source="downstream/bbq (nyu-mll/BBQ data, templates and analysis_scripts)",
        checks=checks,
        tables={"targets": table, "excluded": listing},
        notes=[
            f"{n_metadata_rows} metadata rows for {len(items)} data rows: Gender_identity Q12 has "
            "two template variants, so R's merge gives those rows two metadata rows (they agree).",
            "target_loc is the port of BBQ_results_metadata.R; it is checked on every row against "
            "an independent pandas port in the test suite.",
        ],
    )


ANALYSIS = reproduction(
    reproduce, "BBQ row counts (paper Table 4) and the derived target labels (16 excluded rows)"
)
