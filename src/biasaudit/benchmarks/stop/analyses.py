"""STOP's analyses: the human study, fine-tuning export, annotation subsets, labelled export.

Run as ``biasaudit stop <analysis> --arg ...`` (see `biasaudit list analyses`).
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from biasaudit.analysis import Analysis, AnalysisResult, Context
from biasaudit.benchmarks.stop.data import (
    FULL_KEY,
    LABELLED_KEY,
    Progression,
    check_filter,
    filter_progressions,
    load_progressions,
    stratified_sample,
)
from biasaudit.benchmarks.stop.finetune import human_examples, ideal_examples, write_jsonl
from biasaudit.benchmarks.stop.human import hedges_by_demographic, load_annotations, score_humans
from biasaudit.errors import RunError
from biasaudit.results.io import iter_samples, read_results
from biasaudit.results.schema import MetricValue, SampleRecord, Table


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _progressions(ctx: Context, labelled: bool = False) -> list[Progression]:
    return load_progressions(ctx.store.path(LABELLED_KEY if labelled else FULL_KEY))


def _run_records(run_dir: str) -> list[SampleRecord]:
    records = [r for r in iter_samples(run_dir) if r.benchmark == "stop"]
    if not records:
        raise RunError(f"{run_dir}: no STOP samples in samples.jsonl")
    return records


def run_sensitivity(run_dir: str) -> dict[int, float]:
    """Progression index -> sensitivity of every scored sample of a STOP run."""
    return {
        int(r.data["index"]): float(r.scores["sensitivity"])
        for r in _run_records(run_dir)
        if not r.excluded
    }


class HumanArgs(_Args):
    annotations: str = Field(description="CSV/JSONL with columns annotator,item,step,answer")
    run: list[str] = Field(default_factory=list, description="STOP run directories to compare")
    released_model: list[str] = Field(
        default_factory=list, description="models of the released labelled file to compare"
    )
    impute: Literal["stop_on_first_no", "none"] = Field(
        "stop_on_first_no", description="how unseen steps after a 'no' are filled"
    )
    tie_break: Literal["exclude", "no", "yes"] = Field(
        "exclude", description="a tied annotator vote"
    )
    aggregation: Literal["sentence_majority", "sensitivity_mode"] = Field(
        "sentence_majority", description="how annotators are combined per progression"
    )
    kappa_on: Literal["observed", "imputed"] = Field(
        "observed", description="Fleiss' kappa over observed or imputed answers"
    )


def human(args: HumanArgs, ctx: Context) -> AnalysisResult:
    """Human P / Pl / Pm / Ph, Fleiss' kappa, and Hedges' g of each model vs the humans."""
    needs_labelled = bool(args.released_model)
    progressions = _progressions(ctx, labelled=needs_labelled)
    study = score_humans(
        load_annotations(args.annotations, n_items=len(progressions)),
        progressions,
        impute=args.impute,
        tie_break=args.tie_break,
        aggregation=args.aggregation,
        kappa_on=args.kappa_on,
    )
    models: dict[str, dict[int, float]] = {run: run_sensitivity(run) for run in args.run}
    for model in args.released_model:
        scores = {p.index: p.model_scores[model] for p in progressions if model in p.model_scores}
        if not scores:
            raise RunError(f"no released scores for model '{model}' in the labelled file")
        models[model] = scores
    n = len(study.items)
    metrics = [
        MetricValue(
            name="fleiss_kappa",
            value=study.kappa,
            n=study.n_kappa_items,
            statistic="Fleiss' kappa",
            description=f"agreement of annotators over sentences ({study.kappa_label})",
            reference="Fleiss 1971; Landis & Koch 1977",
        ),
        *(
            MetricValue(name=f"human_{k}", value=v, n=n, statistic="mean", higher_is_better=True)
            for k, v in study.success.items()
        ),
    ]
    tables = {
        f"hedges_g {name}": Table(
            description=f"Hedges' g of {name} vs humans (positive: model more sensitive)",
            columns=["demographic", "g", "n"],
            rows=[[d, g, k] for d, (g, k) in hedges_by_demographic(scores, study).items()],
        )
        for name, scores in models.items()
    }
    tables["excluded"] = Table(
        description="progressions left out of the human scores",
        columns=["item", "reason"],
        rows=[[k, v] for k, v in study.excluded.items()],
    )
    return AnalysisResult(
        benchmark="stop",
        analysis="human",
        source=str(args.annotations),
        metrics=metrics,
        tables=tables,
        notes=[
            f"{n} progressions scored, {len(study.excluded)} excluded, "
            f"{study.incomplete_annotations} incomplete annotations left out",
            f"Fleiss' kappa {study.kappa} ({study.kappa_label}) over {study.n_kappa_items} "
            "sentences",
        ],
    )


class ExportArgs(_Args):
    source: Literal["human", "ideal"] = Field(
        description="answers to train on: the human majority or the severity's ideal"
    )
    annotations: str | None = Field(None, description="annotation file (for --source human)")
    severity: list[str] = Field(default_factory=list, description="only these severities")
    demographic: list[str] = Field(default_factory=list, description="only these demographics")
    file: str = Field(description="the chat JSONL file to write")


def finetune_examples(
    ctx: Context,
    source: str,
    annotations: str | None,
    severity: list[str],
    demographic: list[str],
) -> tuple[list[dict[str, Any]], str]:
    """The alignment conversations (spec §5) and a sentence saying what they hold."""
    everything = _progressions(ctx)
    for name, values in (("severity", severity), ("demographic", demographic)):
        present = {getattr(p, name) for p in everything}
        check_filter(f"--{name}", name, values, present)
    chosen = filter_progressions(
        everything, severity=severity or None, demographic=demographic or None
    )
    if source == "human":
        if not annotations:
            raise RunError("--source human needs --annotations FILE")
        # Score the humans on every progression, then keep the selected ones.
        study = score_humans(load_annotations(annotations), everything)
        keep = {p.index for p in chosen}
        study.items = [item for item in study.items if item.item in keep]
        return (
            human_examples(study, chosen),
            f"human majority answers of {len(study.items)} annotated progressions",
        )
    return (
        ideal_examples(chosen),
        f"ideal answers of all {len(chosen)} selected progressions (no cf turn)",
    )


def export_finetune(args: ExportArgs, ctx: Context) -> AnalysisResult:
    """Alignment fine-tuning conversations (chat JSONL) from humans' or ideal answers."""
    examples, what = finetune_examples(
        ctx, args.source, args.annotations, args.severity, args.demographic
    )
    count = write_jsonl(args.file, examples)
    return AnalysisResult(
        benchmark="stop",
        analysis="export-finetune",
        notes=[f"{count} conversations ({what})"],
        files=[args.file],
    )


class SubsetArgs(_Args):
    n: int = Field(100, ge=1, description="how many progressions")
    file: str | None = Field(None, description="write the items as JSON here")


def subset(args: SubsetArgs, ctx: Context) -> AnalysisResult:
    """A severity-stratified subset of progressions (e.g. 100 items for annotators)."""
    chosen = stratified_sample(_progressions(ctx), args.n, ctx.seed)
    columns = ["item", "severity", "demographic", "sub_demographic"]
    rows = [[p.index, p.severity, p.demographic, p.sub_demographic] for p in chosen]
    files = []
    if args.file:
        items = [dict(zip(columns, row, strict=True)) for row in rows]
        with open(args.file, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(items, indent=1) + "\n")
        files.append(args.file)
    return AnalysisResult(
        benchmark="stop",
        analysis="subset",
        tables={"subset": Table(description="chosen progressions", columns=columns, rows=rows)},
        files=files,
    )


class LabelArgs(_Args):
    run_dir: str = Field(description="a STOP run directory")
    model_id: str | None = Field(None, description="key prefix (default: the run's model spec)")
    file: str = Field(description="the labelled STOP JSON file to write")


def label(args: LabelArgs, ctx: Context) -> AnalysisResult:
    """A run as a labelled STOP file (``<model>_score`` / ``<model>_cf``, like the release)."""
    model_id = args.model_id or read_results(args.run_dir).model.spec
    entries = []
    for record in _run_records(args.run_dir):
        entry = {
            k: record.data[k]
            for k in ("prompts", "cfprompt", "severity", "demographic", "sub_demographic")
        }
        if not record.excluded:
            entry[f"{model_id}_score"] = record.scores["sensitivity"]
            cf = [e.response.text for e in record.exchanges[len(record.scores["answers"]) :]]
            entry[f"{model_id}_cf"] = (cf[0] or "").strip() if cf else ""
        entries.append(entry)
    with open(args.file, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(entries, indent=1, ensure_ascii=False) + "\n")
    return AnalysisResult(
        benchmark="stop",
        analysis="label",
        notes=[f"{len(entries)} entries"],
        files=[args.file],
    )


HUMAN = Analysis("human", "score a human study (kappa, human P, Hedges' g)", HumanArgs, human)
EXPORT_FINETUNE = Analysis(
    "export-finetune", "alignment fine-tuning chat JSONL", ExportArgs, export_finetune
)
SUBSET = Analysis("subset", "severity-stratified subset of progressions", SubsetArgs, subset)
LABEL = Analysis("label", "write a run as a labelled STOP file", LabelArgs, label)
