"""The parts of `reproduce calm` on small hand-made inputs (fast; the full comparison with
the released data is test_calm_reproduce.py). Expected values are hand computation, the
paper's numbers (Tables 7 and 8) or prompts built in the test from the documented released
configuration (50 names per group and template, the authors' seed per split)."""

from __future__ import annotations

from collections import Counter

import pytest

from biasaudit.benchmarks.calm.data import GtRow, Template
from biasaudit.benchmarks.calm.generate import Instance, iter_split
from biasaudit.benchmarks.calm.names import NameGroup, NameSet
from biasaudit.benchmarks.calm.reproduce import (
    SplitComparison,
    _gold_text,
    _identical,
    _name_checks,
    _overlap_table,
    _paper_checks,
    assemble,
    compare_split,
    table8_consistent,
)

TEMPLATES = [
    Template("nli", 0, "SNLI", {"premise": "<PERSON> ran.", "hypothesis": "<he/she/they> ran."},
             "True"),
    Template("nli", 1, "RTE", {"premise": "<PERSON> sat.", "hypothesis": "Nobody sat."}, "False"),
]  # fmt: skip


def _gender() -> NameSet:
    return NameSet(
        "gender",
        (
            NameGroup("male", 0, tuple(f"M{i}" for i in range(60))),
            NameGroup("female", 1, tuple(f"F{i}" for i in range(55))),
            NameGroup("non-binary", 2, tuple(f"N{i}" for i in range(70)), fixed=True),
        ),
        "test",
    )


def _released(prompts: list[Instance]) -> list[dict[str, str]]:
    return [
        {**p.fields, "gender": p.group, "source_dataset": p.template.source_dataset}
        for p in prompts
    ]


def test_compare_split_counts_prompt_by_prompt() -> None:
    # The authors' configuration for NLI gender: 50 names per group, seed 10.
    prompts = list(iter_split(TEMPLATES, _gender(), per_group=50, mode="released", seed=10))
    assert len(prompts) == 2 * 3 * 50
    released = _released(prompts)
    released[3]["hypothesis"] = "changed"
    released[200]["gender"] = "non-binary"  # prompt 200 is female
    gt = [GtRow(p.template.index, str(p.gold), p.group, "x") for p in prompts]
    gt[7] = GtRow(0, "False", gt[7].group, "x")  # another gold
    gt[8] = GtRow(0, "True", "female" if gt[8].group != "female" else "male", "x")
    got = compare_split("nli", "gender", TEMPLATES, _gender(), released[:-1], gt)
    assert (got.task, got.attribute, got.name) == ("nli", "gender", "nli_gender")
    assert (got.templates, got.generated, got.released, got.gt_rows) == (2, 300, 299, 300)
    assert got.identical == 299 - 2
    assert got.gold_equal == 300 - 2
    # names used: every name drawn for each group; the fixed group uses its first 50
    assert got.names["non-binary"] == {f"N{i}" for i in range(50)}
    assert got.names["male"] == {p.name for p in prompts if p.group == "male"}
    assert got.names["female"] == {p.name for p in prompts if p.group == "female"}
    assert 50 < len(got.names["male"]) <= 60  # two fresh draws of 50 from 60
    # a gt CSV shorter than the split is a failed count, not an error
    short = compare_split("nli", "gender", TEMPLATES, _gender(), released, gt[:-5])
    assert (short.gt_rows, short.gold_equal) == (295, 295 - 2)


def test_compare_split_uses_the_seed_of_the_split() -> None:
    # race QA was generated with seed 11, race NLI with 10 (names.RELEASED_SEEDS)
    race = NameSet(
        "race",
        tuple(NameGroup(r, 2, tuple(f"{r}{i}" for i in range(52))) for r in ("white", "black")),
        "test",
    )
    qa = [Template("qa", 0, "babi", {"context": "<PERSON> ran.", "question": "Who?"}, "<PERSON>")]
    prompts = list(iter_split(qa, race, per_group=50, mode="released", seed=11))
    released = [
        {**p.fields, "race": p.group, "source_dataset": p.template.source_dataset} for p in prompts
    ]
    gt = [GtRow(0, str(p.gold), p.group, "babi") for p in prompts]
    got = compare_split("qa", "race", qa, race, released, gt)
    assert (got.generated, got.identical, got.gold_equal) == (100, 100, 100)
    other = list(iter_split(qa, race, per_group=50, mode="released", seed=10))
    assert [p.name for p in other] != [p.name for p in prompts]  # the seed matters here


def _split(task: str, attribute: str, n: int, names: dict[str, set[str]]) -> SplitComparison:
    return SplitComparison(task, attribute, 1, n, n - 1, n - 2, n - 3, n - 4, names)


def _race() -> NameSet:
    return NameSet(
        "race",
        (
            NameGroup("white", 2, ("M1", "M2", "F1", "W1")),
            NameGroup("black", 2, ("B1", "N3")),
            NameGroup("hispanic", 2, ("H1",)),
            NameGroup("asian", 2, ("A1", "A2")),
        ),
        "test",
    )


def test_name_checks_union_over_splits() -> None:
    gender, race = _gender(), _race()
    splits = [
        _split("qa", "gender", 9, {"male": {"M1", "M2"}, "female": {"F1"}}),
        _split("nli", "gender", 9, {"male": {"M2", "M3"}, "non-binary": {"N1"}}),
        _split("qa", "race", 9, {"white": {"W1"}, "asian": {"A1", "A2"}}),
    ]
    checks = {c.name: (c.expected, c.actual) for c in _name_checks(splits, [gender, race])}
    assert checks == {
        "distinct male names": (902, 3),  # M1, M2, M3
        "distinct female names": (906, 1),
        "distinct non-binary names": (50, 1),
        "distinct white names": (299, 1),
        "distinct black names": (299, 0),  # no split used a black name
        "distinct hispanic names": (299, 0),
        "distinct asian names": (283, 2),
        # white: M1, M2, F1 are gender-pool names; black: N3; none for hispanic, asian
        "race/white names also in a gender pool": (226, 3),
        "race/black names also in a gender pool": (44, 1),
        "race/hispanic names also in a gender pool": (33, 0),
        "race/asian names also in a gender pool": (2, 0),
    }
    table = _overlap_table([gender, race])
    assert table.rows == [
        ["gender/male", 60, 2],  # M1, M2
        ["gender/female", 55, 1],  # F1
        ["gender/non-binary", 70, 1],  # N3
        ["race/white", 4, 3],
        ["race/black", 2, 1],
        ["race/hispanic", 1, 0],
        ["race/asian", 2, 0],
    ]
    assert table.columns == ["group", "pool_size", "overlapping"]
    assert table.description == (
        "names of each pool that also occur in a pool of the other attribute"
    )


def test_paper_checks() -> None:
    checks, note = _paper_checks()
    # Table 7, template 1: accuracies 94/78/56 %, baseline 76 %: 100 x 0.38 = 38 (repo)
    # and 100 x 0.38 / 0.76 = 50 (Eq. 1); Table 8: 17 of 20 rows consistent (spec §3.9).
    assert [(c.name, c.expected, c.tolerance) for c in checks] == [
        ("Table 7 template 1, repo bias", 38.0, 1e-9),
        ("Table 7 template 1, Eq. 1 bias", 50.0, 1e-9),
        ("Table 8 rows following the aggregation rule", 17, 0.0),
    ]
    assert checks[0].actual == pytest.approx(38.0, abs=1e-9)
    assert checks[1].actual == pytest.approx(50.0, abs=1e-9)
    assert checks[2].actual == 17
    assert note == "Table 8 rows not following the rule: Llama-2-70B, OPT-30B, T0 (11B)"


def test_assemble_by_hand() -> None:
    counts = {"qa": Counter({"babi": 2, "qamr": 1}), "nli": Counter({"SNLI": 4})}
    splits = [
        _split("qa", "gender", 450, {"male": {"M1"}}),
        _split("qa", "race", 600, {}),
        _split("nli", "gender", 600, {}),
    ]
    result = assemble(counts, splits, [_gender(), _race()])
    assert (result.benchmark, result.source) == (
        "calm",
        "github.com/vipulgupta1011/CALM @ c56e5c7",
    )
    got = [(c.name, c.expected, c.actual) for c in result.checks]
    assert got[:13] == [
        ("templates qa/babi", 28, 2),
        ("templates qa/qamr", 6, 1),
        ("prompts qa_gender", 13_950, 450),
        ("released rows qa_gender", 13_950, 449),
        ("identical prompts qa_gender", 13_950, 447),
        ("golds equal gt qa_gender", 13_950, 446),
        ("prompts qa_race", 18_600, 600),
        ("released rows qa_race", 18_600, 599),
        ("identical prompts qa_race", 18_600, 597),
        ("golds equal gt qa_race", 18_600, 596),
        ("templates nli/SNLI", 15, 4),
        ("prompts nli_gender", 8_100, 600),
        ("released rows nli_gender", 8_100, 599),
    ]
    assert got[15:17] == [("templates in all", 224, 7), ("prompts in all", 78_400, 1650)]
    assert got[17] == ("distinct male names", 902, 1)
    assert [c.name for c in result.checks[-3:]] == [
        "Table 7 template 1, repo bias",
        "Table 7 template 1, Eq. 1 bias",
        "Table 8 rows following the aggregation rule",
    ]
    assert len(result.checks) == 17 + 7 + 4 + 3
    assert result.tables["splits"].rows == [
        ["qa_gender", 1, 450, 449, 448, 447, 446],
        ["qa_race", 1, 600, 599, 598, 597, 596],
        ["nli_gender", 1, 600, 599, 598, 597, 596],
    ]
    assert result.tables["splits"].columns == [
        "split", "templates", "generated", "released", "gt_rows", "identical", "gold_equal",
    ]  # fmt: skip
    assert result.tables["splits"].description == (
        "prompts per split: generated, released (zip), gt rows, identical prompts and golds "
        "equal to the gt CSV"
    )
    assert result.tables["name_overlap"].rows[0] == ["gender/male", 60, 2]  # M1, M2
    assert result.notes == ["Table 8 rows not following the rule: Llama-2-70B, OPT-30B, T0 (11B)"]


def test_table8_rule_by_hand() -> None:
    # Bloom-1B: gender mean(10.8, 9.9) = 10.35 (printed 10.4), race mean(13.0, 18.0) = 15.5,
    # overall (10.4 + 15.5) / 2 = 12.95 (printed 12.9): all within 0.1.
    assert table8_consistent((12.9, 10.4, 10.8, 9.9, None, 15.5, 13.0, 18.0, None))
    # Llama-2-70B (spec §3.9): gender 9.9 but mean(6.1, 9.5, 10.2) = 8.6.
    assert not table8_consistent((11.5, 9.9, 6.1, 9.5, 10.2, 13.1, 6.4, 8.9, 17.2))
    # Exact binary fractions, tolerance 0.5: each condition alone, at its boundary.
    ok = (2.0, 1.5, 1.0, 2.0, None, 2.5, 2.0, 3.0, None)  # means 1.5 and 2.5, overall 2.0
    assert table8_consistent(ok, 0.5)
    assert table8_consistent((2.0, 1.0, 1.0, 2.0, None, 2.5, 2.0, 3.0, None), 0.5)  # |1.5-1| = .5
    assert not table8_consistent((2.0, 0.75, 1.0, 2.0, None, 2.5, 2.0, 3.0, None), 0.5)
    assert table8_consistent((2.0, 1.5, 1.0, 2.0, None, 3.0, 2.0, 3.0, None), 0.5)  # race
    assert not table8_consistent((2.0, 1.5, 1.0, 2.0, None, 3.25, 2.0, 3.0, None), 0.5)
    assert table8_consistent((2.5, 1.5, 1.0, 2.0, None, 2.5, 2.0, 3.0, None), 0.5)  # overall
    assert not table8_consistent((2.75, 1.5, 1.0, 2.0, None, 2.5, 2.0, 3.0, None), 0.5)
    # the default tolerance is 0.1: 0.125 off fails, 0.0625 off passes
    assert not table8_consistent((2.125, 1.5, 1.0, 2.0, None, 2.5, 2.0, 3.0, None))
    assert table8_consistent((2.0625, 1.5, 1.0, 2.0, None, 2.5, 2.0, 3.0, None))
    # three tasks: the mean divides by the number present (3), not by 2
    assert table8_consistent((2.0, 2.0, 1.0, 2.0, 3.0, 2.0, 1.0, 2.0, 3.0), 0.0)
    assert not table8_consistent((2.0, 3.0, 1.0, 2.0, 3.0, 2.0, 1.0, 2.0, 3.0), 0.5)


def _instance(group: str, fields: dict[str, str], source: str = "SNLI") -> Instance:
    template = Template("nli", 0, source, {"premise": "{name} ran."}, "True")
    return Instance(template, "gender", group, 0, "Ann", fields, "True")


def test_identical_counts_prompt_by_prompt() -> None:
    fields = {"premise": "Ann ran.", "hypothesis": "Ann moved."}
    released = {"gender": "female", "source_dataset": "SNLI"} | fields
    split = [_instance("female", fields)] * 5
    records = [
        released,
        released | {"hypothesis": "Ann sat."},  # a field differs
        released | {"gender": "male"},  # the group differs
        released | {"source_dataset": "RTE"},  # the source differs
        {k: v for k, v in released.items() if k != "hypothesis"},  # a field missing
    ]
    assert _identical(split, records, "gender") == 1
    assert _identical(split, [released] * 5, "gender") == 5
    assert _identical(split, [released] * 5, "race") == 0  # the attribute's column is read
    # different lengths: the shorter one is compared, no error
    assert _identical(split, [released] * 3, "gender") == 3
    assert _identical(split[:2], [released] * 3, "gender") == 2


def test_gold_text_is_the_gt_csv_spelling() -> None:
    template = Template("qa", 0, "mctest", {"context": "c", "question": "q"}, ("B", "x"))
    mcqa = Instance(template, "gender", "male", 0, "Al", {}, ("B", "go home"))
    assert _gold_text(mcqa) == "['B', 'go home']"
    assert _gold_text(_instance("male", {})) == "True"


@pytest.mark.parametrize("missing", [0, 1, 5])
def test_table8_rows_need_overall_gender_and_race(missing: int) -> None:
    row: list[float | None] = [2.0, 1.5, 1.0, 2.0, None, 2.5, 2.0, 3.0, None]
    row[missing] = None
    with pytest.raises(AssertionError):
        table8_consistent(tuple(row))
