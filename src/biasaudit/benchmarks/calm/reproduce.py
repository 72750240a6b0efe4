"""`biasaudit reproduce calm`: prompt counts per split, checked against the released data.

Generates every split with the released configuration (fresh names per template from the
pools, the fixed gender-neutral list, the authors' seeds) and compares it with the released
zips prompt by prompt and with the gt CSVs gold by gold. Also checks the template counts of
Tables 1-3, the overlap of race and gender name pools, the arithmetic of Table 7 (template 1)
and the aggregation rule of Table 8.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from biasaudit.analysis import AnalysisResult, Check, reproduction
from biasaudit.benchmarks.calm import data as d
from biasaudit.benchmarks.calm.generate import Instance, iter_split
from biasaudit.benchmarks.calm.metrics import template_bias
from biasaudit.benchmarks.calm.names import (
    RELEASED_SEEDS,
    NameSet,
    gender_names,
    pool_overlaps,
    race_names,
)
from biasaudit.data import DataStore
from biasaudit.results.schema import Table

EXPECTED_SPLITS = {
    ("qa", "gender"): 13_950,
    ("qa", "race"): 18_600,
    ("nli", "gender"): 8_100,
    ("nli", "race"): 10_800,
    ("sentiment", "gender"): 11_550,
    ("sentiment", "race"): 15_400,
}
#: Distinct names per group in the released prompts (spec §2.4).
EXPECTED_DISTINCT = {
    "male": 902,
    "female": 906,
    "non-binary": 50,
    "white": 299,
    "black": 299,
    "hispanic": 299,
    "asian": 283,
}
#: Race-pool names that also occur in a gender pool (spec §2.4, the paper's §9 limitation).
EXPECTED_OVERLAP = {"race/white": 226, "race/black": 44, "race/hispanic": 33, "race/asian": 2}
#: Table 8 rows: (overall, gender, gender QA/NLI/SA, race, race QA/NLI/SA); None is "-".
TABLE8: dict[str, tuple[float | None, ...]] = {
    "Llama-2-7B": (26.5, 25.7, 13.3, 24.3, 39.5, 27.3, 13.4, 26.7, 41.7),
    "Llama-2-13B": (14.2, 13.8, 7.8, 22.6, 11.1, 14.6, 8.9, 20.2, 14.7),
    "Llama-2-70B": (11.5, 9.9, 6.1, 9.5, 10.2, 13.1, 6.4, 8.9, 17.2),
    "Falcon-7B": (22.0, 20.2, 23.9, 23.3, 13.5, 23.8, 19.9, 30.2, 21.3),
    "Falcon-40B": (15.8, 14.6, 8.5, 27.6, 7.8, 16.9, 9.6, 24.1, 17.0),
    "T0-3B": (8.0, 7.9, 6.1, 11.9, 5.8, 8.0, 7.3, 6.9, 9.9),
    "T0 (11B)": (7.2, 7.9, 7.1, 11.7, 4.1, 6.5, 3.3, 6.6, 6.4),
    "T0+ (11B)": (5.0, 5.7, 5.5, 8.7, 3.0, 4.3, 3.9, 4.3, 4.7),
    "T0++ (11B)": (5.5, 5.5, 4.6, 6.0, 5.9, 5.4, 3.2, 4.9, 8.1),
    "OPT-1.3B": (24.5, 21.9, 37.8, 23.0, 5.0, 27.1, 49.7, 21.3, 10.4),
    "OPT-2.7B": (11.6, 13.9, 26.7, 5.0, 9.9, 9.3, 17.4, 5.0, 5.4),
    "OPT-6.7B": (14.0, 11.5, 17.3, 9.9, 7.2, 16.6, 16.7, 24.1, 8.9),
    "OPT-13B": (14.5, 13.8, 17.0, 19.5, 4.9, 15.1, 17.1, 20.4, 7.8),
    "OPT-30B": (15.0, 14.8, 24.9, 13.4, 6.0, 15.1, 20.4, 19.3, 6.0),
    "Bloom-1B": (12.9, 10.4, 10.8, 9.9, None, 15.5, 13.0, 18.0, None),
    "Bloom-3B": (15.2, 12.8, 10.5, 15.1, None, 17.7, 10.6, 24.7, None),
    "Bloom-7B": (23.4, 13.7, 12.6, 14.8, None, 33.0, 19.4, 46.6, None),
    "GPT-Neo-1.3B": (18.2, 17.7, 17.7, 14.2, 21.1, 18.7, 13.7, 14.5, 28.0),
    "GPT-Neo-2.7B": (15.5, 14.8, 21.8, 7.8, None, 16.2, 23.8, 8.5, None),
    "GPTJ-6B": (9.1, 8.2, 11.0, None, 5.4, 10.1, 12.7, None, 7.4),
}
#: Rows the spec (§3.9 item 13) found internally inconsistent in the paper.
TABLE8_INCONSISTENT = frozenset({"Llama-2-70B", "T0 (11B)", "OPT-30B"})


def _mean(values: tuple[float | None, ...]) -> float:
    present = [v for v in values if v is not None]
    return sum(present) / len(present)


def table8_consistent(row: tuple[float | None, ...], tolerance: float = 0.1) -> bool:
    """Does a Table 8 row follow mean-of-available-tasks, then mean of gender and race?

    The tolerance allows for one-decimal rounding of every printed number.
    """
    overall, gender, g_qa, g_nli, g_sa, race, r_qa, r_nli, r_sa = row
    assert overall is not None and gender is not None and race is not None
    return (
        abs(_mean((g_qa, g_nli, g_sa)) - gender) <= tolerance
        and abs(_mean((r_qa, r_nli, r_sa)) - race) <= tolerance
        and abs((gender + race) / 2 - overall) <= tolerance
    )


def _identical(split: list[Instance], released: list[dict[str, str]], attribute: str) -> int:
    same = 0
    for instance, record in zip(split, released, strict=False):
        fields = {k: record.get(k) for k in instance.fields}
        if (
            fields == instance.fields
            and record.get(attribute) == instance.group
            and record.get("source_dataset") == instance.template.source_dataset
        ):
            same += 1
    return same


def _gold_text(instance: Instance) -> str:
    gold = instance.gold
    return repr(list(gold)) if isinstance(gold, tuple) else gold


@dataclass(frozen=True)
class SplitComparison:
    """One (task, attribute) split generated with the released configuration and compared
    with the released prompts (zip) and the gt CSV, prompt by prompt."""

    task: str
    attribute: str
    templates: int
    generated: int
    released: int
    gt_rows: int
    identical: int
    gold_equal: int
    #: group -> the distinct names its generated prompts use
    names: dict[str, set[str]]

    @property
    def name(self) -> str:
        return f"{self.task}_{self.attribute}"


def compare_split(
    task: str,
    attribute: str,
    templates: list[d.Template],
    names: NameSet,
    released: list[dict[str, str]],
    gt: list[d.GtRow],
) -> SplitComparison:
    """Generate one split as the authors did (50 names per group and template, their seed)
    and count the prompts and golds equal to the released ones."""
    split = list(
        iter_split(
            templates,
            names,
            per_group=50,
            mode="released",
            seed=RELEASED_SEEDS[(attribute, task)],
        )
    )
    golds = sum(
        1
        for i, g in zip(split, gt, strict=False)
        if (_gold_text(i), i.group) == (g.answer, g.group)
    )
    used: dict[str, set[str]] = {}
    for instance in split:
        used.setdefault(instance.group, set()).add(instance.name)
    return SplitComparison(
        task=task,
        attribute=attribute,
        templates=len(templates),
        generated=len(split),
        released=len(released),
        gt_rows=len(gt),
        identical=_identical(split, released, attribute),
        gold_equal=golds,
        names=used,
    )


def _split_checks(split: SplitComparison) -> list[Check]:
    expected = EXPECTED_SPLITS[(split.task, split.attribute)]
    return [
        Check(f"prompts {split.name}", expected, split.generated),
        Check(f"released rows {split.name}", expected, split.released),
        Check(f"identical prompts {split.name}", expected, split.identical),
        Check(f"golds equal gt {split.name}", expected, split.gold_equal),
    ]


def _name_checks(splits: list[SplitComparison], name_sets: list[NameSet]) -> list[Check]:
    distinct: dict[str, set[str]] = {}
    for split in splits:
        for group, used in split.names.items():
            distinct.setdefault(group, set()).update(used)
    checks = [
        Check(f"distinct {group} names", expected, len(distinct.get(group, set())))
        for group, expected in EXPECTED_DISTINCT.items()
    ]
    overlaps = pool_overlaps(name_sets)
    checks += [
        Check(f"{group} names also in a gender pool", expected, overlaps[group])
        for group, expected in EXPECTED_OVERLAP.items()
    ]
    return checks


def _overlap_table(name_sets: list[NameSet]) -> Table:
    overlaps = pool_overlaps(name_sets)
    return Table(
        description="names of each pool that also occur in a pool of the other attribute",
        columns=["group", "pool_size", "overlapping"],
        rows=[
            [f"{s.attribute}/{g.label}", len(g.pool), overlaps[f"{s.attribute}/{g.label}"]]
            for s in name_sets
            for g in s.groups
        ],
    )


def _paper_checks() -> tuple[list[Check], str]:
    """Table 7's template-1 arithmetic and Table 8's aggregation rule; the note names the
    Table 8 rows that do not follow it."""
    accs = [0.94, 0.78, 0.56]
    consistent = [m for m, row in TABLE8.items() if table8_consistent(row)]
    checks = [
        Check("Table 7 template 1, repo bias", 38.0, template_bias(accs, 0.76, "repo"), 1e-9),
        Check("Table 7 template 1, Eq. 1 bias", 50.0, template_bias(accs, 0.76, "paper"), 1e-9),
        Check("Table 8 rows following the aggregation rule", 17, len(consistent)),
    ]
    inconsistent = sorted(set(TABLE8) - set(consistent))
    return checks, f"Table 8 rows not following the rule: {', '.join(inconsistent)}"


def assemble(
    template_counts: dict[str, Counter[str]],
    splits: list[SplitComparison],
    name_sets: list[NameSet],
) -> AnalysisResult:
    """The checks, tables and notes of `reproduce calm` from the per-task template counts
    (source dataset -> templates) and the compared splits (task-major order)."""
    result = AnalysisResult(benchmark="calm", source="github.com/vipulgupta1011/CALM @ c56e5c7")
    for task, counts in template_counts.items():
        for source, n in counts.items():
            result.checks.append(
                Check(f"templates {task}/{source}", d.EXPECTED_COUNTS[task][source], n)
            )
        for split in splits:
            if split.task == task:
                result.checks.extend(_split_checks(split))
    result.checks.append(
        Check("templates in all", 224, sum(c.total() for c in template_counts.values()))
    )
    result.checks.append(Check("prompts in all", 78_400, sum(s.generated for s in splits)))
    result.checks.extend(_name_checks(splits, name_sets))
    result.tables["name_overlap"] = _overlap_table(name_sets)
    paper, note = _paper_checks()
    result.checks.extend(paper)
    result.tables["splits"] = Table(
        description="prompts per split: generated, released (zip), gt rows, identical "
        "prompts and golds equal to the gt CSV",
        columns=[
            "split",
            "templates",
            "generated",
            "released",
            "gt_rows",
            "identical",
            "gold_equal",
        ],
        rows=[
            [s.name, s.templates, s.generated, s.released, s.gt_rows, s.identical, s.gold_equal]
            for s in splits
        ],
    )
    result.notes.append(note)
    return result


def reproduce(store: DataStore) -> AnalysisResult:
    """Load the released files, compare every split, assemble the checks."""
    name_sets = {"gender": gender_names(store), "race": race_names(store)}
    template_counts: dict[str, Counter[str]] = {}
    splits: list[SplitComparison] = []
    for task in d.TASKS:
        gt = {a: d.load_gt(store, task, a) for a in name_sets}
        templates = d.load_templates(store, task, gt["gender"])
        template_counts[task] = Counter(t.source_dataset for t in templates)
        for attribute, names in name_sets.items():
            released = d.load_released(store, task, attribute)
            splits.append(compare_split(task, attribute, templates, names, released, gt[attribute]))
    return assemble(template_counts, splits, list(name_sets.values()))


#: `biasaudit reproduce calm` / `biasaudit calm reproduce`.
ANALYSIS = reproduction(
    reproduce, "CALM prompt and template counts per split against the released prompts"
)
