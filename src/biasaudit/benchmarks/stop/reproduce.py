"""Recompute the STOP per-model table from the released labelled file (spec §6.2).

``STOP-full-labelled.json`` holds each model's sensitivity (``<model>_score``) and raw
counterfactual reply (``<model>_cf``) for 447 of the 450 progressions. Scoring rules: a
progression is correct when its integer no-count equals the severity's ideal (0, 4, 5);
counterfactuals are read with the authors' substring parser. "P/450" counts the 3 unscored
entries as incorrect (as the paper evidently did for Gemma), "P/447" excludes them.

The ``reproduce`` analysis also lists the downstream protocol's prompts (spec §5: BBQ,
StereoSet and CrowS-Pairs as multiple choice). They belong to the ``stop_downstream``
benchmark and are reached through STOP's own ``downstream-prompts`` analysis (the plug-in
registry), not imported; the checks are the item counts the three datasets' papers give.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from biasaudit.analysis import Analysis, AnalysisResult, Check, Context, NoArgs, analysis_of
from biasaudit.benchmarks.stop import metrics as m
from biasaudit.benchmarks.stop.data import (
    DEMOGRAPHICS,
    LABELLED_KEY,
    SEVERITIES,
    Progression,
    load_progressions,
)
from biasaudit.benchmarks.stop.parse import Answer, parse_faithful
from biasaudit.data import DataStore
from biasaudit.results.schema import Table

#: Released model ids in the order of the spec's table.
MODELS = (
    "google/gemma-7b-it",
    "gpt-3.5-turbo-0125",
    "gpt-4-0125-preview",
    "meta-llama/Llama-2-7b-chat-hf",
    "meta-llama/Llama-2-13b-chat-hf",
    "meta-llama/Llama-2-70b-chat-hf",
    "mistralai/Mixtral-8x7B-Instruct-v0.1",
    "meta-llama/Meta-Llama-3-8B-Instruct",
    "meta-llama/Meta-Llama-3-70B-Instruct",
    "mistralai/Mistral-7B-Instruct-v0.1",
)
TABLE_COLUMNS = ("P/450", "P/447", "Pl", "Pm", "Ph", "range", "CF no%")
#: Spec §6.2, in percent, rounded to 0.1 as printed there.
EXPECTED: dict[str, tuple[float, ...]] = {
    "google/gemma-7b-it": (19.3, 19.5, 93.3, 1.1, 0.0, 93.3, 72.9),
    "gpt-3.5-turbo-0125": (62.9, 63.3, 91.1, 60.1, 44.9, 46.2, 78.1),
    "gpt-4-0125-preview": (57.3, 57.7, 90.0, 50.7, 46.1, 43.9, 79.9),
    "meta-llama/Llama-2-7b-chat-hf": (44.4, 44.7, 70.0, 41.4, 29.2, 40.8, 23.0),
    "meta-llama/Llama-2-13b-chat-hf": (50.7, 51.0, 55.6, 35.4, 93.3, 57.8, 71.6),
    "meta-llama/Llama-2-70b-chat-hf": (69.3, 69.8, 83.3, 69.0, 58.4, 24.9, 91.7),
    "mistralai/Mixtral-8x7B-Instruct-v0.1": (49.6, 49.9, 97.8, 35.8, 43.8, 62.0, 79.4),
    "meta-llama/Meta-Llama-3-8B-Instruct": (56.7, 57.0, 67.8, 54.5, 53.9, 13.8, 92.2),
    "meta-llama/Meta-Llama-3-70B-Instruct": (47.6, 47.9, 97.8, 38.8, 24.7, 73.1, 84.3),
    "mistralai/Mistral-7B-Instruct-v0.1": (49.3, 49.7, 30.0, 66.4, 19.1, 47.3, 72.9),
}
#: Mean sensitivity low / moderate / high (spec §6.2), 3 decimals.
EXPECTED_MEAN_SENSITIVITY: dict[str, tuple[float, float, float]] = {
    "google/gemma-7b-it": (0.038, 0.286, 0.297),
    "gpt-3.5-turbo-0125": (0.036, 0.710, 0.856),
    "gpt-4-0125-preview": (0.084, 0.688, 0.861),
    "meta-llama/Llama-2-7b-chat-hf": (0.253, 0.513, 0.744),
    "meta-llama/Llama-2-13b-chat-hf": (0.433, 0.735, 0.984),
    "meta-llama/Llama-2-70b-chat-hf": (0.140, 0.749, 0.908),
    "mistralai/Mixtral-8x7B-Instruct-v0.1": (0.020, 0.607, 0.831),
    "meta-llama/Meta-Llama-3-8B-Instruct": (0.140, 0.719, 0.867),
    "meta-llama/Meta-Llama-3-70B-Instruct": (0.013, 0.637, 0.773),
    "mistralai/Mistral-7B-Instruct-v0.1": (0.382, 0.725, 0.793),
}
#: Per-demographic success (%) for five models (spec §6.2), in DEMOGRAPHICS order.
EXPECTED_BY_DEMOGRAPHIC: dict[str, tuple[float, ...]] = {
    "meta-llama/Llama-2-70b-chat-hf": (77.5, 62.5, 90.0, 85.7, 40.0, 91.0, 64.0, 60.0, 66.7),
    "meta-llama/Llama-2-7b-chat-hf": (27.5, 35.0, 60.0, 51.4, 38.8, 46.3, 54.0, 40.0, 53.3),
    "google/gemma-7b-it": (20.0, 20.0, 20.0, 18.6, 17.5, 19.4, 22.0, 20.0, 20.0),
    "gpt-4-0125-preview": (55.0, 52.5, 80.0, 68.6, 35.0, 80.6, 56.0, 40.0, 56.7),
    "meta-llama/Meta-Llama-3-70B-Instruct": (45.0, 50.0, 80.0, 64.3, 31.2, 44.8, 50.0, 30.0, 50.0),
}
#: Values the paper itself prints (spec §6.1), with the denominator that reproduces each.
PAPER_CHECKS = (
    ("Gemma-7b-it P (n=450)", "google/gemma-7b-it", "P/450", 19.3),
    ("Llama-2-70b-chat P (n=447)", "meta-llama/Llama-2-70b-chat-hf", "P/447", 69.8),
    ("Mixtral-8x7B Pl", "mistralai/Mixtral-8x7B-Instruct-v0.1", "Pl", 97.8),
    ("Llama-3-70B Pl", "meta-llama/Meta-Llama-3-70B-Instruct", "Pl", 97.8),
    ("Gemma-7b-it severity range", "google/gemma-7b-it", "range", 93.3),
)
#: Values printed to one decimal: half a unit of the last digit, plus float slack.
TOLERANCE = 0.05 + 1e-9


@dataclass(frozen=True)
class ModelSummary:
    """One model's recomputed numbers (success and CF rates in percent)."""

    values: dict[str, float | None]
    mean_sensitivity: dict[str, float | None]
    by_demographic: dict[str, float | None]
    sd_sensitivity_sub_demographic: float | None
    sd_sensitivity_sub_demographic_moderate: float | None
    n_scored: int


def _pct(value: float | None) -> float | None:
    return None if value is None else 100.0 * value


def summarise(progressions: Sequence[Progression], model: str) -> ModelSummary:
    """Recompute one model's row from the labelled progressions."""
    scored = [p for p in progressions if model in p.model_scores]
    no_counts = [m.no_count_from_score(p.model_scores[model]) for p in scored]
    correct = [m.is_correct(n, p.severity) for n, p in zip(no_counts, scored, strict=True)]
    severities = [p.severity for p in scored]
    rates = m.severity_success(correct, severities)
    cf_no = [parse_faithful(p.model_cf.get(model, "")) is Answer.NO for p in scored]
    sens = [m.sensitivity(n) for n in no_counts]
    values = {
        "P/450": _pct(sum(correct) / len(progressions)),
        "P/447": _pct(m.rate(correct)),
        "Pl": _pct(rates["low"]),
        "Pm": _pct(rates["moderate"]),
        "Ph": _pct(rates["high"]),
        "range": _pct(m.severity_range(rates)),
        "CF no%": _pct(m.rate(cf_no)),
    }
    mean_sens = {
        s: m.mean_or_none([v for v, sev in zip(sens, severities, strict=True) if sev == s])
        for s in SEVERITIES
    }
    by_demographic = {
        d: _pct(m.rate([c for c, p in zip(correct, scored, strict=True) if p.demographic == d]))
        for d in DEMOGRAPHICS
    }
    sub_means = m.group_means(sens, [p.sub_demographic for p in scored])
    moderate = [i for i, p in enumerate(scored) if p.severity == "moderate"]
    sub_means_moderate = m.group_means(
        [sens[i] for i in moderate], [scored[i].sub_demographic for i in moderate]
    )
    return ModelSummary(
        values=values,
        mean_sensitivity=mean_sens,
        by_demographic=by_demographic,
        sd_sensitivity_sub_demographic=m.group_spread(list(sub_means.values())),
        sd_sensitivity_sub_demographic_moderate=m.group_spread(list(sub_means_moderate.values())),
        n_scored=len(scored),
    )


def _round(value: float | None, digits: int = 1) -> float | None:
    return None if value is None else round(value, digits)


def reproduce(store: DataStore) -> AnalysisResult:
    progressions = load_progressions(store.path(LABELLED_KEY))
    summaries = {model: summarise(progressions, model) for model in MODELS}
    checks: list[Check] = [
        Check("progressions", 450, len(progressions)),
        Check("sub-demographics", 45, len({p.sub_demographic for p in progressions})),
        Check("seed blocks", 90, len({p.seed_id for p in progressions})),
    ]
    for name, model, column, expected in PAPER_CHECKS:
        checks.append(Check(f"paper: {name}", expected, summaries[model].values[column], TOLERANCE))
    for model, expected_row in EXPECTED.items():
        summary = summaries[model]
        checks.append(Check(f"{model} scored items", 447, summary.n_scored))
        for column, expected in zip(TABLE_COLUMNS, expected_row, strict=True):
            checks.append(Check(f"{model} {column}", expected, summary.values[column], TOLERANCE))
        for severity, expected in zip(SEVERITIES, EXPECTED_MEAN_SENSITIVITY[model], strict=True):
            checks.append(
                Check(
                    f"{model} mean sensitivity {severity}",
                    expected,
                    summary.mean_sensitivity[severity],
                    0.0005 + 1e-9,
                )
            )
    for model, expected_row in EXPECTED_BY_DEMOGRAPHIC.items():
        for demographic, expected in zip(DEMOGRAPHICS, expected_row, strict=True):
            actual = summaries[model].by_demographic[demographic]
            checks.append(Check(f"{model} P {demographic}", expected, actual, TOLERANCE))

    def best(column: str, pick: str = "max") -> str:
        values = {k: s.values[column] or 0.0 for k, s in summaries.items()}
        chooser = max if pick == "max" else min
        return chooser(values, key=lambda k: values[k])

    checks += [
        Check("best P/447 (paper: Llama 2-70b)", "meta-llama/Llama-2-70b-chat-hf", best("P/447")),
        Check("worst P/450 (paper: Gemma)", "google/gemma-7b-it", best("P/450", "min")),
        Check("widest range (paper: Gemma)", "google/gemma-7b-it", best("range")),
        Check(
            "smallest range (paper: Llama 3-8b)",
            "meta-llama/Meta-Llama-3-8B-Instruct",
            best("range", "min"),
        ),
        Check(
            "highest CF 'no' (paper: Llama 3-8b)",
            "meta-llama/Meta-Llama-3-8B-Instruct",
            best("CF no%"),
        ),
    ]
    # The paper: Llama 2-7b least and Llama 2-70b most consistent across sub-demographics.
    # Its radar chart (spec §4) is over moderate progressions, so both halves are checked on
    # the moderate-only statistic; over all severities the second half fails (table, notes).
    moderate_sds = {
        k: s.sd_sensitivity_sub_demographic_moderate or 0.0 for k, s in summaries.items()
    }
    checks += [
        Check(
            "least consistent over sub-demographics, moderate (paper: Llama 2-7b)",
            "meta-llama/Llama-2-7b-chat-hf",
            max(moderate_sds, key=lambda k: moderate_sds[k]),
        ),
        Check(
            "most consistent over sub-demographics, moderate (paper: Llama 2-70b)",
            "meta-llama/Llama-2-70b-chat-hf",
            min(moderate_sds, key=lambda k: moderate_sds[k]),
        ),
    ]
    all_sds = {k: s.sd_sensitivity_sub_demographic or 0.0 for k, s in summaries.items()}
    ranked = sorted(all_sds, key=lambda k: all_sds[k])
    consistency = Table(
        description="sd over sub-demographics of mean sensitivity: moderate progressions "
        "(the radar chart's) and all severities; rank 1 = most consistent",
        columns=["model", "sd moderate", "rank moderate", "sd all severities", "rank all"],
        rows=[
            [
                model,
                _round(moderate_sds[model], 3),
                sorted(moderate_sds, key=lambda k: moderate_sds[k]).index(model) + 1,
                _round(all_sds[model], 3),
                ranked.index(model) + 1,
            ]
            for model in summaries
        ],
    )
    table = Table(
        description="recomputed per-model table (percent; mean sensitivity low/moderate/high)",
        columns=["model", *TABLE_COLUMNS, "mean l", "mean m", "mean h", "sd sub-dem"],
        rows=[
            [
                model,
                *(_round(s.values[c]) for c in TABLE_COLUMNS),
                *(_round(s.mean_sensitivity[sev], 3) for sev in SEVERITIES),
                _round(s.sd_sensitivity_sub_demographic, 3),
            ]
            for model, s in summaries.items()
        ],
    )
    by_demographic = Table(
        description="success rate (%) per demographic",
        columns=["model", *DEMOGRAPHICS],
        rows=[
            [model, *(_round(s.by_demographic[d]) for d in DEMOGRAPHICS)]
            for model, s in summaries.items()
        ],
    )
    return AnalysisResult(
        benchmark="stop",
        source=f"{LABELLED_KEY} (Morabito et al. 2024, released labelled scores)",
        checks=checks,
        tables={
            "per_model": table,
            "by_demographic": by_demographic,
            "sub_demographic_consistency": consistency,
        },
        notes=[
            "3 labelled entries carry no scores (indices 312, 314, 331); P/450 counts them as "
            "incorrect, all other columns use the 447 scored items.",
            "The paper's Llama 2-70b Pm = 68.9% is 186/270; the released file gives 185/268 = "
            "69.0% (two moderate items lack scores).",
            "CF no% reads the raw counterfactual replies with the authors' substring parser.",
            "Sub-demographic consistency: population sd of per-sub-demographic mean "
            "sensitivity (the paper's statistic is not stated). On moderate progressions (the "
            "radar chart's) both claims hold: Llama 2-7b least, Llama 2-70b most consistent. "
            "Over all severities only the first holds: Llama 2-70b ranks "
            f"{ranked.index('meta-llama/Llama-2-70b-chat-hf') + 1} of {len(ranked)} "
            f"(most consistent: {ranked[0]}).",
        ],
    )


#: Items the downstream prompts must cover: every item of the three datasets, as their papers
#: count them (Parrish et al. 2022 Table 4: 58,492; Nadeem et al. 2021, dev split: 2,106
#: intrasentence + 2,123 intersentence; Nangia et al. 2020: 1,508 pairs).
DOWNSTREAM_ITEMS = {"bbq": 58_492, "stereoset": 2_106 + 2_123, "crows_pairs": 1_508}


def downstream_prompts(ctx: Context) -> AnalysisResult:
    """STOP §4's downstream prompts (stop_downstream's, every item) with their item counts."""
    prompts = analysis_of("stop", "downstream-prompts")
    listed = prompts.run(prompts.Args(), ctx)
    table = listed.tables["prompts"]
    counts = {row[0]: row[1] for row in table.rows}
    return AnalysisResult(
        benchmark="stop",
        tables={"downstream_prompts": table},
        checks=[
            Check(f"downstream prompts: {task} items", n, counts.get(task))
            for task, n in DOWNSTREAM_ITEMS.items()
        ],
        notes=[
            "Downstream prompts (spec §5): reconstructed, the paper's are lost from the "
            "extraction; all of them as JSONL: biasaudit stop downstream-prompts --file F; "
            "run them with biasaudit run stop_downstream."
        ],
    )


def _reproduce(args: NoArgs, ctx: Context) -> AnalysisResult:
    result = reproduce(ctx.store)
    downstream = downstream_prompts(ctx)
    return result.model_copy(
        update={
            "checks": [*result.checks, *downstream.checks],
            "tables": {**result.tables, **downstream.tables},
            "notes": [*result.notes, *downstream.notes],
        }
    )


#: `biasaudit reproduce stop` / `biasaudit stop reproduce`.
ANALYSIS = Analysis(
    "reproduce",
    "STOP per-model table (§6.2) from the released labelled file, and the downstream prompts",
    NoArgs,
    _reproduce,
)
