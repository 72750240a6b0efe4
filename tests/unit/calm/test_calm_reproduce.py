"""Generation against the released zips and gt CSVs, and `biasaudit reproduce calm`."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from biasaudit.analysis import AnalysisResult
from biasaudit.benchmarks.calm.reproduce import EXPECTED_SPLITS, reproduce
from biasaudit.data import DataStore


@pytest.fixture(scope="module")
def reproduction(store: DataStore) -> AnalysisResult:
    return reproduce(store)


def test_all_checks_pass(reproduction: AnalysisResult) -> None:
    failed = [c for c in reproduction.checks if not c.passed]
    assert not failed, failed
    assert len(reproduction.checks) == 56


@pytest.mark.parametrize(("task", "attribute"), list(EXPECTED_SPLITS))
def test_each_split_is_the_released_one(
    reproduction: AnalysisResult, task: str, attribute: str
) -> None:
    rows = {r[0]: r for r in reproduction.tables["splits"].rows}
    _, _, generated, released, gt_rows, identical, gold_equal = rows[f"{task}_{attribute}"]
    expected = EXPECTED_SPLITS[(task, attribute)]
    assert generated == released == gt_rows == identical == gold_equal == expected


def test_total_is_78400(reproduction: AnalysisResult) -> None:
    assert sum(r[2] for r in reproduction.tables["splits"].rows) == 78_400


#: Templates per source dataset: paper Tables 1-3 (QA 93, NLI 54, sentiment 77 = 224).
PAPER_TEMPLATES = {
    "qa": {"qamr": 6, "mctest": 11, "TweetQA": 11, "relation_extraction": 11, "babi": 28,
           "sodapop": 20, "mcscript": 2, "duorc": 4},
    "nli": {"SNLI": 15, "RTE": 13, "wnli": 15, "sick": 11},
    "sentiment": {"SST": 29, "Toxic": 29, "Sentiment140": 11, "EEC": 8},
}  # fmt: skip
#: Prompts per template: 50 names x 3 gender groups, or x 4 race groups (spec §2.4).
PER_TEMPLATE = {"gender": 150, "race": 200}


def _expected_checks() -> list[tuple[str, float]]:
    """Every check of `reproduce calm`, in order, with the paper's / spec's number."""
    checks: list[tuple[str, float]] = []
    for task, sources in PAPER_TEMPLATES.items():
        checks += [(f"templates {task}/{source}", n) for source, n in sources.items()]
        for attribute, per in PER_TEMPLATE.items():
            prompts = per * sum(sources.values())
            for what in ("prompts", "released rows", "identical prompts", "golds equal gt"):
                checks.append((f"{what} {task}_{attribute}", prompts))
    checks += [("templates in all", 224), ("prompts in all", 78_400)]
    # spec §2.4: distinct names in the released prompts, and race names in a gender pool
    distinct = {"male": 902, "female": 906, "non-binary": 50, "white": 299, "black": 299,
                "hispanic": 299, "asian": 283}  # fmt: skip
    checks += [(f"distinct {group} names", n) for group, n in distinct.items()]
    overlap = {"white": 226, "black": 44, "hispanic": 33, "asian": 2}
    checks += [(f"race/{race} names also in a gender pool", n) for race, n in overlap.items()]
    # Table 7, template 1 (accuracies 94/78/56 %): 100 x 0.38 = 38 and 100 x 0.38 / 0.76 = 50
    checks += [("Table 7 template 1, repo bias", 38.0), ("Table 7 template 1, Eq. 1 bias", 50.0)]
    # spec §3.9 item 13: 3 of Table 8's 20 rows are inconsistent
    checks.append(("Table 8 rows following the aggregation rule", 17))
    return checks


def test_every_check_against_the_paper(reproduction: AnalysisResult) -> None:
    assert reproduction.benchmark == "calm"
    assert reproduction.source == "github.com/vipulgupta1011/CALM @ c56e5c7"
    got = [(c.name, c.expected) for c in reproduction.checks]
    assert got == _expected_checks()
    for check in reproduction.checks:
        assert check.actual == pytest.approx(check.expected, abs=1e-9), check
        # counts are exact; the two Table 7 values allow for float rounding only
        assert check.tolerance == (1e-9 if check.name.startswith("Table 7") else 0.0), check
    assert reproduction.notes == [
        "Table 8 rows not following the rule: Llama-2-70B, OPT-30B, T0 (11B)"
    ]


def test_splits_table(reproduction: AnalysisResult) -> None:
    table = reproduction.tables["splits"]
    assert table.columns == [
        "split", "templates", "generated", "released", "gt_rows", "identical", "gold_equal",
    ]  # fmt: skip
    assert table.description == (
        "prompts per split: generated, released (zip), gt rows, identical prompts and golds "
        "equal to the gt CSV"
    )
    expected = []
    for task, sources in PAPER_TEMPLATES.items():
        n = sum(sources.values())
        for attribute, per in PER_TEMPLATE.items():
            expected.append([f"{task}_{attribute}", n, *[n * per] * 5])
    assert table.rows == expected


def _naive_pools(data_dir: Path) -> dict[str, set[str]]:
    """The name pools read directly from the CSVs as the spec (§2.4) describes them."""
    base = data_dir / "calm" / "names"
    pools: dict[str, set[str]] = {}
    with (base / "categorised_data" / "segregated_names.csv").open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if (row["usa.male"], row["usa.female"]) == ("1", "0"):
                pools.setdefault("gender/male", set()).add(row["Name"])
            if (row["usa.male"], row["usa.female"]) == ("0", "1"):
                pools.setdefault("gender/female", set()).add(row["Name"])
    with (base / "unisex" / "unisex_names_table.csv").open(encoding="utf-8") as f:
        gaps = sorted((float(r["gap"]), i, r["name"]) for i, r in enumerate(csv.DictReader(f)))
    pools["gender/non-binary"] = {name for _, _, name in gaps[:50]}
    with (base / "categorised_data" / "names_race_categorisation.csv").open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            ones = [r for r in ("white", "black", "hispanic", "asian") if row[f"usa.{r}"] == "1"]
            if len(ones) == 1:
                pools.setdefault(f"race/{ones[0]}", set()).add(row["Name"])
    return pools


def test_name_overlap_table(reproduction: AnalysisResult, data_dir: Path) -> None:
    pools = _naive_pools(data_dir)
    gender = set().union(*(v for k, v in pools.items() if k.startswith("gender/")))
    race = set().union(*(v for k, v in pools.items() if k.startswith("race/")))
    table = reproduction.tables["name_overlap"]
    assert table.columns == ["group", "pool_size", "overlapping"]
    assert table.description == (
        "names of each pool that also occur in a pool of the other attribute"
    )
    order = ["gender/male", "gender/female", "gender/non-binary", "race/white", "race/black",
             "race/hispanic", "race/asian"]  # fmt: skip
    expected = [
        [k, len(pools[k]), len(pools[k] & (race if k.startswith("gender") else gender))]
        for k in order
    ]
    assert table.rows == expected
    # spec §2.4: 908 male-only and 911 female-only names in the CSV
    assert [row[1] for row in table.rows[:2]] == [908, 911]
