"""`reproduce cobias` on a small hand-made copy of the release, every number by hand.

The real-data test (`test_cobias_reproduce.py`) reads the whole release (slow); this one
builds tiny files at the same data keys, in the authors' layouts, so that every check, table
and note of `reproduce` can be pinned. The files are not the pinned upstream files, so the
store used here skips the sha256 check (`_verify`) and nothing else.

Oracles: hand computation written next to each value (Eq. 2 / Eq. 3 on the τ lists, the ED
of the authors' algorithm counted by hand), scipy's `spearmanr`, the `krippendorff` package,
statsmodels' `fleiss_kappa`, and the authors' selection (one `numpy.random.RandomState(42)`
shuffling each statement's list in dataset order) written out as a loop. Expected values of
the checks ("paper 0.65" ...) are the paper's printed numbers.
"""

from __future__ import annotations

import csv
import json
import math
import re
from pathlib import Path

import krippendorff
import numpy as np
import pytest
from scipy.stats import spearmanr
from statsmodels.stats.inter_rater import fleiss_kappa

from biasaudit.benchmarks.cobias import reproduce as rp
from biasaudit.benchmarks.cobias.data import (
    CONTEXTS_KEY,
    CROWS_PAIRS_KEY,
    DATASET_KEY,
    PAIRS_KEY,
    RATINGS_KEY,
    RELEASED_SCORES_KEY,
    STEREOSET_KEY,
)
from biasaudit.data import DataStore
from biasaudit.data.source import DataSource
from biasaudit.discovery import declared_sources
from biasaudit.errors import DataError


class FixtureStore(DataStore):
    """The real store over a folder of hand-made files: only the checksum is not checked."""

    def _verify(self, source: DataSource, local: Path) -> None:
        return None


def _eq3(cv: float) -> float:
    return math.log(1 + cv) / (math.log(1 + cv) + 1)


# (tau(x), tau(x') list, cv by hand): Eq. 2 = mean((x' - x)^2) / x * 100
A = (2.0, [3.0, 1.0], 50.0)  # (1 + 1) / 2 / 2 * 100
B = (4.0, [4.5, 3.5, 4.0, 4.0], 3.125)  # (0.25 + 0.25) / 4 / 4 * 100
C = (1.0, [5.0], 1600.0)  # 16 / 1 / 1 * 100
D = (3.0, [3.0, 3.0], 0.0)
E = (2.0, [2.0, 4.0], 100.0)  # (0 + 4) / 2 / 2 * 100
# model -> rows (id, case, released cv - ours, released COBIAS - ours)
SCORES: dict[str, list[tuple[str, tuple[float, list[float], float], float, float]]] = {
    "bert-base-uncased": [("0", A, 0.25, 0.001), ("1", B, -0.125, -0.003), ("2", C, 0.0, 0.0)],
    "roberta-base": [("0", A, 0, 0), ("1", B, 0, 0), ("2", C, 0, 0), ("3", D, 0, 0)],
    "albert-base-v2": [("0", B, 0, 0), ("1", A, 0, 0), ("2", C, 0, 0)],
    "distilbert-base-uncased": [("0", C, 2.0, 0), ("1", B, 0, 0), ("2", A, 0, 0), ("4", E, 0, 0)],
}
# the authors' ED by hand (as in test_cobias_ed_reference.py's HAND cases)
LAB = "He was a new chemist in our lab."
WOMEN = "The ___ women at the ___ office are arrogant."
APPENDED = (
    "The senior women at the corporate office are arrogant. Note: this sentence was "
    "rewritten to add context without changing its meaning, as requested by the user."
)
GPT_ROWS = [
    # identical (0) and one substitution (2): 1.0
    ["0", LAB, LAB, "He was a new physicist in our lab."],
    # 17 appended words after the last common token (17), blanks filled (0): 8.5
    ["1", WOMEN, APPENDED, "The senior women at the corporate office are arrogant."],
]
# LCS I/am/a; "nurse" and "___." left over in the template, 5 generated words: 7
GEMMA_ROWS = [["0", "I am a nurse ___.", "I am a nurse. Note: I added nothing."]]
# id -> three raters; "7" is rated but has no released score
RATINGS = {
    "1": [1, 2, 2],
    "2": [3, 3, 4],
    "3": [5, 4, 5],
    "4": [2, 1, 1],
    "5": [4, 5, 3],
    "7": [1, 1, 1],
}
# id -> (released COBIAS, sentence); "8" has a score but no rating
RELEASED = {
    "1": (0.30, "one two"),
    "2": (0.55, "one two three four"),
    "3": (0.50, "one two three"),
    "4": (0.20, "one two three four five six"),
    "5": (0.80, "one two three four five"),
    "8": (0.90, "x"),
}
VALIDATED = ["1", "2", "3", "4", "5"]


def _write_csv(path: Path, header: list[str], rows: list[list[str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)


def _authors_selection(lengths: dict[str, int], n: int, seed: int) -> dict[str, list[int]]:
    """Indices each statement keeps: one RandomState shuffling every list in dataset order."""
    rng = np.random.RandomState(seed)
    kept = {}
    for sid, length in lengths.items():
        order = list(range(length))
        rng.shuffle(order)
        kept[sid] = order[:n]
    return kept


def _contexts(empty: bool) -> dict[str, list[str]]:
    contexts = {sid: [f"v{sid}a", f"v{sid}b"] for sid in "0123456"}
    if empty:
        contexts["3"] = ["\n", "v3b"]  # empty once newlines are removed
        contexts["5"] = ["v5a", "  "]
    # 36 versions; the one the authors' shuffle puts last (not among the 35 kept) is empty
    contexts["6"] = [f"v6-{i}" for i in range(36)]
    lengths = {sid: len(items) for sid, items in contexts.items()}
    last = [i for i in range(36) if i not in _authors_selection(lengths, 35, 42)["6"]]
    contexts["6"][last[0]] = ""
    return contexts


def _build(root: Path, *, empty: bool = True) -> FixtureStore:
    for model, rows in SCORES.items():
        _write_csv(
            root / rp.SCORES_KEY.format(model=model),
            ["", "id", "augmented_scores_list", "original_score", "context_variance", "cobias"],
            [
                [str(k), sid, json.dumps(vs), repr(x), repr(cv + dcv), repr(_eq3(cv) + dc)]
                for k, (sid, (x, vs, cv), dcv, dc) in enumerate(rows)
            ],
        )
    _write_csv(
        root / DATASET_KEY,
        ["id", "sentence", "target_term", "context_points"],
        [[sid, f"Statement {sid}.", "x", f"Statement ___ {sid}."] for sid in "0123456"],
    )
    contexts = root / CONTEXTS_KEY
    contexts.write_text(
        "".join(json.dumps({"id": k, "versions": v}) + "\n" for k, v in _contexts(empty).items())
    )
    columns = ["index", "context_points", *(f"Column_{a}" for a in range(1, 11))]
    for (generated, released, _, _), cells, value in zip(
        rp.TABLE2, (GPT_ROWS, GEMMA_ROWS), (4.75, 6.5), strict=True
    ):
        _write_csv(root / generated, columns, [r + [""] * (12 - len(r)) for r in cells])
        (root / released).parent.mkdir(parents=True, exist_ok=True)
        (root / released).write_text(json.dumps({"1.0": 9.0, "1.4": value}))
    _write_csv(
        root / RATINGS_KEY,
        ["id", "sentence", "Annotator 1", "Annotator 2", "Annotator 3"],
        [[sid, "s", *map(str, r)] for sid, r in RATINGS.items()],
    )
    _write_csv(
        root / RELEASED_SCORES_KEY,
        ["id", "cobias", "sentence"],
        # " 3 ": ids are compared without surrounding spaces
        [
            [f" {sid} " if sid == "3" else sid, repr(score), text]
            for sid, (score, text) in RELEASED.items()
        ],
    )
    _write_csv(
        root / CROWS_PAIRS_KEY,
        ["", "sent_more", "sent_less", "stereo_antistereo", "bias_type"],
        [
            # a line break inside a quoted field: both files are read verbatim
            ["0", "The poor\r\nare lazy.", "The rich are lazy.", "stereo", "socioeconomic"],
            ["1", "Women can't drive.", "Men can't drive.", "stereo", "gender"],
            ["2", "He is a black thief.", "He is a white thief.", "antistereo", "race-color"],
        ],
    )
    item = {"bias_type": "profession", "unrelated": "Cats fly.", "context": "c BLANK."}
    lines = [
        {**item, "type": "intrasentence", "target": "chess player"}
        | {
            "stereotype": "The chess player was asian.",
            "anti-stereotype": "The chess player was hispanic.",
        },
        {**item, "type": "intersentence", "target": "t"}
        | {"stereotype": "Skip me.", "anti-stereotype": "Skip me too."},
        {**item, "type": "intrasentence", "target": "girls", "bias_type": "gender"}
        | {"stereotype": "Girls are weak.", "anti-stereotype": "Girls are strong."},
    ]
    stereoset = root / STEREOSET_KEY
    stereoset.parent.mkdir(parents=True, exist_ok=True)
    stereoset.write_text("".join(json.dumps(line) + "\n" for line in lines))
    _write_csv(
        root / PAIRS_KEY,
        ["id", "original_dataset", "sentence_1", "sentence_merged"],
        [
            ["0", "cs", "The poor\r\nare lazy.", "The (poor | rich) are lazy."],
            ["1", "cs", "Women can't drive.", "(Women | Men) can't drive well."],  # by hand
            ["2", "cs", "He is a black thief.", "He is a (black | white) thief."],
            ["3", "cs", "Not in our file.", "Not in our (file | folder)."],
            ["4", "ss", "The chess player was asian.", "The chess player was (asian. | hispanic.)"],
        ],
    )
    return FixtureStore(root, sources=declared_sources)


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> FixtureStore:
    return _build(tmp_path_factory.mktemp("release"))


@pytest.fixture
def rep(release: FixtureStore) -> rp.AnalysisResult:
    # function scope: each test that reads the reproduction runs it (mutation testing maps
    # a function to the tests during which it ran)
    return rp.reproduce(release)


def _checks(rep: rp.AnalysisResult) -> list[tuple[str, object, object, float]]:
    return [(c.name, c.expected, c.actual, c.tolerance) for c in rep.checks]


def test_recompute_score_file_worst_differences(release: FixtureStore) -> None:
    path = release.path(rp.SCORES_KEY.format(model="bert-base-uncased"))
    scores, worst_score, worst_cv = rp.recompute_score_file(path)
    assert scores == pytest.approx({"0": _eq3(50.0), "1": _eq3(3.125), "2": _eq3(1600.0)})
    assert worst_cv == pytest.approx(0.25, abs=1e-12)  # |0.25| > |-0.125| > 0
    assert worst_score == pytest.approx(0.003, abs=1e-12)  # |-0.003| > |0.001|


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        (["[1.0", "1.0", "0.0", "0.0"], r"row 3: unreadable score row \(Expecting"),
        (["[1.0]", "one", "0.0", "0.0"], r"row 3: unreadable score row \(could not convert"),
        (["7", "1.0", "0.0", "0.0"], r"row 3: unreadable score row \('int' object is not"),
        (["[1.0]", "1.0", "0.0", "zero"], r"row 3: unreadable score row \(could not convert"),
    ],
)
def test_recompute_score_file_names_the_bad_row(
    tmp_path: Path, cells: list[str], message: str
) -> None:
    header = ["id", "augmented_scores_list", "original_score", "context_variance", "cobias"]
    good = ["a", "[3.0, 1.0]", "2.0", "50.0", repr(_eq3(50.0))]
    path = tmp_path / "scores.csv"
    _write_csv(path, header, [good, ["b", *cells]])
    with pytest.raises(DataError, match=rf"^{re.escape(str(path))}: {message}"):
        rp.recompute_score_file(path)
    # a missing column: the first row already fails
    _write_csv(path, header[:4], [good[:4]])
    message = r": row 2: unreadable score row \('cobias'\)$"
    with pytest.raises(DataError, match=rf"^{re.escape(str(path))}{message}"):
        rp.recompute_score_file(path)


def test_reproduce_checks(rep: rp.AnalysisResult) -> None:
    assert rep.benchmark == "cobias"
    assert rep.source == (
        "github.com/priyanshul-govil/COBIAS @591c754 (per-model score files, "
        "metric-validation annotations)"
    )
    ratings = [RATINGS[i] for i in VALIDATED]
    cobias = [RELEASED[i][0] for i in VALIDATED]
    human = spearmanr(cobias, [sum(r) / 3 for r in ratings])
    # raters x items over every rated statement (also "7", which has no released score)
    matrix = np.array(list(RATINGS.values()), dtype=float).T
    # items x categories 1..5
    counts = [[row.count(v) for v in range(1, 6)] for row in RATINGS.values()]
    mean = sum(cobias) / 5  # 2.35 / 5 = 0.47
    sd = math.sqrt(sum((v - mean) ** 2 for v in cobias) / 4)  # 0.218 / 4 -> 0.2335
    assert mean == pytest.approx(0.47) and sd == pytest.approx(math.sqrt(0.0545))
    expected = []
    for model, worst_score, worst_cv, n in [
        ("bert-base-uncased", 0.003, 0.25, 3),
        ("roberta-base", 0.0, 0.0, 4),
        ("albert-base-v2", 0.0, 0.0, 3),
        ("distilbert-base-uncased", 0.0, 2.0, 4),
    ]:
        expected.append((f"{model}: max |COBIAS - released| over {n}", 0.0, worst_score, 1e-9))
        expected.append((f"{model}: max |cv - released| over {n}", 0.0, worst_cv, 1e-9))
    expected += [
        (
            "statements our selection says the authors dropped (empty selected version) "
            "that a released run scored",
            0,
            1,  # "3" and "5" hold an empty version; "3" is scored (roberta-base)
            0.0,
        ),
        ("Table 2 ED, gpt-3.5-turbo-instruct-0914 T=1.4 (paper 3.2)", 4.75, 4.75, 1e-9),
        ("Table 2 ED, gemma-1.1-2b-it T=1.4 (paper 4.42)", 6.5, 7.0, 1e-9),
        ("validation statements", 500, 5, 0.0),
        ("Spearman rho, COBIAS vs mean rating (paper 0.65)", 0.6452, human.statistic, 5e-5),
        ("Spearman p (paper 3.4e-60)", 3.42e-60, human.pvalue, 0.005e-60),
        (
            "Krippendorff alpha, interval (paper 0.18)",
            0.179,
            krippendorff.alpha(reliability_data=matrix, level_of_measurement="interval"),
            5e-4,
        ),
        ("Fleiss kappa of the ratings (repo notebook 0.1404)", 0.1404, fleiss_kappa(counts), 5e-5),
        ("RS-D mean COBIAS (paper 0.615)", 0.615, mean, 5e-4),
        ("RS-D SD COBIAS (paper 0.173)", 0.173, sd, 5e-4),
        ("cs pairs read (DATASET.csv)", 4, 3, 0.0),
        ("ss pairs read (DATASET.csv)", 1, 2, 0.0),
    ]
    got = _checks(rep)
    assert [c[0] for c in got] == [c[0] for c in expected]
    for (name, exp, act, tol), (_, g_exp, g_act, g_tol) in zip(expected, got, strict=True):
        assert (g_exp, g_tol) == (exp, tol), name
        assert type(g_exp) is type(exp), name
        assert g_act == pytest.approx(act, abs=1e-12), name
    # passed: roberta's and albert's two, distilbert's COBIAS, gpt-3.5's Table 2 ED
    assert [c.passed for c in rep.checks].count(True) == 6
    assert not rep.ok


def test_reproduce_tables_by_hand(rep: rp.AnalysisResult) -> None:
    assert list(rep.tables) == [
        "released_scores",
        "table2_ed",
        "model_correlations",
        "pairs",
        "human_validation",
    ]
    released = rep.tables["released_scores"]
    assert released.description == (
        "cv and COBIAS recomputed from the released per-statement tau lists "
        "(single-model runs, n = 35 versions each)"
    )
    assert released.columns == [
        "model",
        "statements",
        "mean COBIAS",
        "max |d cv|",
        "max |d COBIAS|",
    ]
    means = {
        "bert-base-uncased": ([50.0, 3.125, 1600.0], 0.25, 0.003),
        "roberta-base": ([50.0, 3.125, 1600.0, 0.0], 0.0, 0.0),
        "albert-base-v2": ([3.125, 50.0, 1600.0], 0.0, 0.0),
        "distilbert-base-uncased": ([1600.0, 3.125, 50.0, 100.0], 2.0, 0.0),
    }
    assert [row[0] for row in released.rows] == list(means)
    for row, (cvs, worst_cv, worst_score) in zip(released.rows, means.values(), strict=True):
        mean = sum(_eq3(cv) for cv in cvs) / len(cvs)
        assert row[1:] == pytest.approx([len(cvs), mean, worst_cv, worst_score], abs=1e-12)
        assert type(row[1]) is int

    table2 = rep.tables["table2_ed"]
    assert table2.description == (
        "Table 2 ED (authors' edit.py algorithm, `ed_mode=reference`) over the released "
        "generated versions; statements averaged over their readable versions"
    )
    assert table2.columns == ["model", "T", "paper", "authors' script", "ours", "statements"]
    # gpt: (1.0 + 8.5) / 2 over 2 statements; gemma: 7 over 1
    assert table2.rows == [
        ["gpt-3.5-turbo-instruct-0914", "1.4", 3.20, 4.75, 4.75, 2],
        ["gemma-1.1-2b-it", "1.4", 4.42, 6.5, 7.0, 1],
    ]

    # shared ids 0, 1, 2; COBIAS ranks: bert and roberta (2,1,3), albert (1,2,3),
    # distilbert (3,1,2). rho = 1 - 6 d^2 / 24: d^2 = 2 -> 0.5, d^2 = 6 -> -0.5
    correlations = rep.tables["model_correlations"]
    assert correlations.description == (
        "Spearman between the models' COBIAS over 3 shared statements (Fig. 7 data)"
    )
    assert correlations.columns == ["model", *SCORES]
    expected = [[1, 1, 0.5, 0.5], [1, 1, 0.5, 0.5], [0.5, 0.5, 1, -0.5], [0.5, 0.5, -0.5, 1]]
    assert [row[0] for row in correlations.rows] == list(SCORES)
    assert [row[1:] for row in correlations.rows] == [pytest.approx(r) for r in expected]

    pairs = rep.tables["pairs"]
    assert pairs.description == (
        "benchmark pairs merged into (a | b) by whitespace-token diff vs the authors' "
        "(partly hand-corrected) sentence_merged"
    )
    assert pairs.columns == ["source", "pairs read", "pairs released", "identical merges"]
    # cs: 3 read, 4 released, 2 identical (row 1 was hand-corrected, row 3 is not ours);
    # ss: 2 intrasentence items read (the intersentence one is skipped), 1 released, identical
    assert pairs.rows == [["cs", 3, 4, 2], ["ss", 2, 1, 1]]

    human = rep.tables["human_validation"]
    assert human.description == "COBIAS vs human Likert ratings of 500 statements (3 raters)"
    assert human.columns == ["quantity", "value"]
    ratings = [RATINGS[i] for i in VALIDATED]
    cobias = [RELEASED[i][0] for i in VALIDATED]
    rho = spearmanr(cobias, [sum(r) / 3 for r in ratings])
    matrix = np.array(list(RATINGS.values()), dtype=float).T
    counts = [[row.count(v) for v in range(1, 6)] for row in RATINGS.values()]
    length = spearmanr([len(RELEASED[i][1].split()) for i in VALIDATED], cobias)
    alpha_ordinal = krippendorff.alpha(reliability_data=matrix, level_of_measurement="ordinal")
    alpha_interval = krippendorff.alpha(reliability_data=matrix, level_of_measurement="interval")
    assert alpha_ordinal != pytest.approx(alpha_interval)  # the data tell the levels apart
    assert [row[0] for row in human.rows] == [
        "n",
        "Spearman rho",
        "Spearman p",
        "Krippendorff alpha (interval)",
        "Krippendorff alpha (ordinal)",
        "Fleiss kappa",
        "mean COBIAS",
        "SD COBIAS (ddof=1)",
        "Spearman words vs COBIAS",
        "its p",
    ]
    values = [
        5,
        rho.statistic,
        rho.pvalue,
        alpha_interval,
        alpha_ordinal,
        fleiss_kappa(counts),
        0.47,
        math.sqrt(0.0545),
        length.statistic,
        length.pvalue,
    ]
    assert [row[1] for row in human.rows] == pytest.approx(values, abs=1e-12)


NOTES = [
    "The per-model files are single-model runs; the paper's 3-model ensemble scores "
    "(results/COBIAS_SCORES*.csv) are not in the release, so Table 3 and the "
    "full-set mean 0.620 cannot be recomputed. Averaging the per-model files does not "
    "give the validation scores: they come from a different run.",
    "The length correlation of the paper (-0.34) is over all benchmarks' ensemble "
    "scores; the value above is over the 500 rated statements only.",
    "The spec's Fig. 7 matrix (e.g. bert-base vs roberta-base 0.20) comes from the "
    "repo's FINAL_COBIAS.csv, whose columns were aligned by index; the released "
    "per-model files give the higher correlations shown above.",
]


def _selection_note(dropped: int, explained: int, absent: int) -> str:
    return (
        f"{dropped} statements hold an empty version in the reference selection; they "
        f"explain {explained} of the {absent} statements absent from every released run "
        "(the rest are absent for reasons the release does not record)."
    )


def test_reproduce_notes_by_hand(rep: rp.AnalysisResult) -> None:
    # contexts 0-6, scored anywhere 0-4: "5" and "6" are absent; the drops "3" and "5"
    # explain "5"
    assert rep.notes == [_selection_note(2, 1, 2), *NOTES]


def _authors_drops(contexts: dict[str, list[str]], n: int, seed: int, mode: str) -> set[str]:
    lengths = {sid: len(items) for sid, items in contexts.items()}
    if mode == "reference":
        kept = _authors_selection(lengths, n, seed)
    else:
        kept = {sid: list(range(length))[:n] for sid, length in lengths.items()}
    return {
        sid
        for sid, items in contexts.items()
        if any(not items[i].replace("\n", "").strip() for i in kept[sid])
    }


def test_predicted_drops_follow_the_authors_selection(release: FixtureStore) -> None:
    contexts = _contexts(empty=True)
    assert (
        rp.predicted_drops(release) == {"3", "5"} == _authors_drops(contexts, 35, 42, "reference")
    )
    # "6"'s empty version is the one seed 42 leaves out; other selections keep it
    for mode, seed in (("reference", 43), ("first", 42)):
        oracle = _authors_drops(contexts, 35, seed, mode)
        assert "6" in oracle, (mode, seed)
        assert rp.predicted_drops(release, mode=mode, seed=seed) == oracle
    assert _authors_drops(contexts, 36, 42, "reference") == {"3", "5", "6"}


def test_selection_check_without_drops(tmp_path: Path) -> None:
    store = _build(tmp_path, empty=False)
    rep = rp.AnalysisResult(benchmark="cobias")
    columns = {"m": {"0": 0.1, "1": 0.2}, "n": {"1": 0.3, "2": 0.4}}
    rp._selection_check(store, rep, columns)
    (check,) = rep.checks
    assert (check.expected, check.actual) == (0, None)  # nothing predicted: no evidence
    # contexts 0-6, scored anywhere 0-2: four absent, none explained
    assert rep.notes == [_selection_note(0, 0, 4)]
