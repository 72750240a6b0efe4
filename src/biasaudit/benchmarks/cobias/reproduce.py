"""`biasaudit reproduce cobias`: recompute the authors' released COBIAS numbers.

1. For each released per-model score file (``COBIAS_SCORES_<model>.csv``: τ(x), the 35 τ(x′)
   and the authors' cv and COBIAS per statement), recompute cv (Eq. 2) and COBIAS (Eq. 3) from
   the τ lists and compare every statement.
2. The human validation (§5.4): Spearman between the released COBIAS of 500 statements and
   their mean Likert rating, Krippendorff's alpha of the three raters, and the sample's
   mean and SD (RS-D).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np

from biasaudit.analysis import AnalysisResult, Check, reproduction
from biasaudit.benchmarks.cobias import metrics
from biasaudit.benchmarks.cobias.data import (
    CONTEXTS_KEY,
    CROWS_PAIRS_KEY,
    DATASET_KEY,
    PAIRS_KEY,
    RATINGS_KEY,
    RELEASED_SCORES_KEY,
    STEREOSET_KEY,
    read_contexts,
    read_statements,
    select_versions,
)
from biasaudit.benchmarks.cobias.generator_study import study_edit_distance
from biasaudit.benchmarks.cobias.pairs import read_crows_pairs, read_stereoset_intrasentence
from biasaudit.benchmarks.cobias.templates import clean_version
from biasaudit.benchmarks.cobias.validation import (
    krippendorff_alpha,
    length_correlation,
    rank_correlations,
    read_ratings,
    read_scores,
    spearman,
)
from biasaudit.benchmarks.cobias.verification import fleiss_kappa
from biasaudit.data import DataStore
from biasaudit.errors import DataError
from biasaudit.results.schema import Table

SCORE_MODELS = ("bert-base-uncased", "roberta-base", "albert-base-v2", "distilbert-base-uncased")
SCORES_KEY = "cobias/experiments/cobias-model-testing/cobias-scores/COBIAS_SCORES_{model}.csv"


def recompute_score_file(path: Path) -> tuple[dict[str, float], float, float]:
    """(recomputed COBIAS by id, max |ΔCOBIAS|, max |Δcv|) for one released score file."""
    worst_score = worst_cv = 0.0
    scores: dict[str, float] = {}
    with path.open(newline="", encoding="utf-8") as handle:
        for line_no, row in enumerate(csv.DictReader(handle), start=2):
            try:
                versions = [float(v) for v in json.loads(row["augmented_scores_list"])]
                original = float(row["original_score"])
                released_cv = float(row["context_variance"])
                released = float(row["cobias"])
            except (KeyError, ValueError, TypeError) as exc:
                raise DataError(f"{path}: row {line_no}: unreadable score row ({exc})") from None
            cv = metrics.context_variance(original, versions)
            score = metrics.cobias(cv)
            worst_cv = max(worst_cv, abs(cv - released_cv))
            worst_score = max(worst_score, abs(score - released))
            scores[row["id"]] = score
    return scores, worst_score, worst_cv


def reproduce(store: DataStore) -> AnalysisResult:
    rep = AnalysisResult(
        benchmark="cobias",
        source="github.com/priyanshul-govil/COBIAS @591c754 (per-model score files, "
        "metric-validation annotations)",
    )
    rows = []
    columns: dict[str, dict[str, float]] = {}
    for model in SCORE_MODELS:
        scores, worst_score, worst_cv = recompute_score_file(
            store.path(SCORES_KEY.format(model=model))
        )
        columns[model] = scores
        n = len(scores)
        rows.append([model, n, float(np.mean(list(scores.values()))), worst_cv, worst_score])
        rep.checks.append(
            Check(f"{model}: max |COBIAS - released| over {n}", 0.0, worst_score, 1e-9)
        )
        rep.checks.append(Check(f"{model}: max |cv - released| over {n}", 0.0, worst_cv, 1e-9))
    rep.tables["released_scores"] = Table(
        description="cv and COBIAS recomputed from the released per-statement tau lists "
        "(single-model runs, n = 35 versions each)",
        columns=["model", "statements", "mean COBIAS", "max |d cv|", "max |d COBIAS|"],
        rows=rows,
    )

    _selection_check(store, rep, columns)
    _table2_checks(store, rep)
    shared, matrix = rank_correlations(columns)
    rep.tables["model_correlations"] = Table(
        description=f"Spearman between the models' COBIAS over {len(shared)} shared statements "
        "(Fig. 7 data)",
        columns=["model", *columns],
        rows=[[name, *row] for name, row in zip(columns, matrix, strict=True)],
    )

    ratings = read_ratings(store.path(RATINGS_KEY))
    released = read_scores(store.path(RELEASED_SCORES_KEY))
    means = ratings.means()
    ids = [i for i in ratings.ids if i in released and i in means]
    human = spearman([released[i] for i in ids], [means[i] for i in ids])
    alpha = krippendorff_alpha(ratings.by_rater())
    alpha_ordinal = krippendorff_alpha(ratings.by_rater(), level="ordinal")
    fleiss = fleiss_kappa(ratings.category_counts())
    summary = metrics.summarize([released[i] for i in ids])
    rep.checks.extend(
        [
            Check("validation statements", 500, len(ids)),
            Check("Spearman rho, COBIAS vs mean rating (paper 0.65)", 0.6452, human.rho, 5e-5),
            Check("Spearman p (paper 3.4e-60)", 3.42e-60, human.p, 0.005e-60),
            Check("Krippendorff alpha, interval (paper 0.18)", 0.179, alpha, 5e-4),
            Check("Fleiss kappa of the ratings (repo notebook 0.1404)", 0.1404, fleiss, 5e-5),
            Check("RS-D mean COBIAS (paper 0.615)", 0.615, summary.mean, 5e-4),
            Check("RS-D SD COBIAS (paper 0.173)", 0.173, summary.sd, 5e-4),
        ]
    )
    _pairs_checks(store, rep)
    sentences = _validation_sentences(store)
    length = length_correlation([sentences[i] for i in ids], [released[i] for i in ids])
    rep.tables["human_validation"] = Table(
        description="COBIAS vs human Likert ratings of 500 statements (3 raters)",
        columns=["quantity", "value"],
        rows=[
            ["n", len(ids)],
            ["Spearman rho", human.rho],
            ["Spearman p", human.p],
            ["Krippendorff alpha (interval)", alpha],
            ["Krippendorff alpha (ordinal)", alpha_ordinal],
            ["Fleiss kappa", fleiss],
            ["mean COBIAS", summary.mean],
            ["SD COBIAS (ddof=1)", summary.sd],
            ["Spearman words vs COBIAS", length.rho],
            ["its p", length.p],
        ],
    )
    rep.notes.extend(
        [
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
    )
    return rep


def predicted_drops(store: DataStore, mode: str = "reference", seed: int = 42) -> set[str]:
    """Statements whose selected 35 versions hold an empty one under `mode`/`seed`.

    The authors' scorer raised on an empty version and dropped the statement silently, so
    if a selection is theirs, none of these statements can appear in a released run.
    """
    statements = read_statements(store.path(DATASET_KEY))
    chosen = select_versions(
        [s.id for s in statements],
        read_contexts(store.path(CONTEXTS_KEY)),
        35,
        mode,  # type: ignore[arg-type]
        seed,
    )
    return {sid for sid, items in chosen.items() if any(not clean_version(v) for v in items)}


def _selection_check(
    store: DataStore, rep: AnalysisResult, columns: dict[str, dict[str, float]]
) -> None:
    """The released runs (not our own count) decide: no predicted drop may have a score.

    With other seeds or `selection=first` the same check fails (4-6 predicted drops are
    scored in the release), so it tells the authors' selection apart from others.
    """
    dropped = predicted_drops(store)
    scored_anywhere = set().union(*(set(c) for c in columns.values()))
    rep.checks.append(
        Check(
            "statements our selection says the authors dropped (empty selected version) "
            "that a released run scored",
            0,
            len(dropped & scored_anywhere) if dropped else None,
        )
    )
    rep.notes.append(
        f"{len(dropped)} statements hold an empty version in the reference selection; they "
        f"explain {len(dropped - scored_anywhere)} of the "
        f"{len(set(read_contexts(store.path(CONTEXTS_KEY))) - scored_anywhere)} statements "
        "absent from every released run (the rest are absent for reasons the release does "
        "not record)."
    )


#: Table 2 rows recomputed: (generator file key, the authors' avg_edit_distance key, model).
TABLE2 = (
    (
        "cobias/experiments/context-generation/data/data_generated/gpt_3.5/"
        "gpt-3.5-turbo-instruct-0914_1.4.csv",
        "cobias/experiments/utils/data/avg_edit_distance/gpt-3.5-turbo-instruct-0914.json",
        "gpt-3.5-turbo-instruct-0914",
        3.20,
    ),
    (
        "cobias/experiments/context-generation/data/data_generated/google_gemma_2b/"
        "gemma-1.1-2b-it_1.4.csv",
        "cobias/experiments/utils/data/avg_edit_distance/gemma-1.1-2b-it.json",
        "gemma-1.1-2b-it",
        4.42,
    ),
)


def _table2_checks(store: DataStore, rep: AnalysisResult) -> None:
    """Table 2's ED at T = 1.4 from the released generations with the reference ED.

    Expected values: the authors' own script outputs (avg_edit_distance/*.json), which the
    paper prints rounded to two decimals.
    """
    rows = []
    for generations, released, model, paper in TABLE2:
        study = study_edit_distance(store.path(generations))
        theirs = float(json.loads(store.path(released).read_text(encoding="utf-8"))["1.4"])
        rep.checks.append(
            Check(f"Table 2 ED, {model} T=1.4 (paper {paper})", theirs, study.mean, 1e-9)
        )
        rows.append([model, "1.4", paper, theirs, study.mean, len(study.per_statement)])
    rep.tables["table2_ed"] = Table(
        description="Table 2 ED (authors' edit.py algorithm, `ed_mode=reference`) over the "
        "released generated versions; statements averaged over their readable versions",
        columns=["model", "T", "paper", "authors' script", "ours", "statements"],
        rows=rows,
    )


def _pairs_checks(store: DataStore, rep: AnalysisResult) -> None:
    """Our CrowS-Pairs / StereoSet importers against the authors' merged pairs."""
    with store.path(PAIRS_KEY).open(newline="", encoding="utf-8") as handle:
        released = list(csv.DictReader(handle))
    ours = {
        "cs": read_crows_pairs(store.path(CROWS_PAIRS_KEY)),
        "ss": read_stereoset_intrasentence(store.path(STEREOSET_KEY)),
    }
    rows = []
    for source, records in ours.items():
        theirs = [r for r in released if r["original_dataset"] == source]
        merged = {r.sentence_1: r.sentence_merged for r in records}
        same = sum(merged.get(r["sentence_1"]) == r["sentence_merged"] for r in theirs)
        rep.checks.append(Check(f"{source} pairs read (DATASET.csv)", len(theirs), len(records)))
        rows.append([source, len(records), len(theirs), same])
    rep.tables["pairs"] = Table(
        description="benchmark pairs merged into (a | b) by whitespace-token diff vs the "
        "authors' (partly hand-corrected) sentence_merged",
        columns=["source", "pairs read", "pairs released", "identical merges"],
        rows=rows,
    )


def _validation_sentences(store: DataStore) -> dict[str, str]:
    path = store.path(RELEASED_SCORES_KEY)
    with path.open(newline="", encoding="utf-8") as handle:
        return {row["id"].strip(): row["sentence"] for row in csv.DictReader(handle)}


#: `biasaudit reproduce cobias` / `biasaudit cobias reproduce`.
ANALYSIS = reproduction(reproduce, "COBIAS scores and human validation from the released runs")
