"""The BBNLI-next extension pipeline as typed analyses (spec §2.3, checklist §8.1).

    biasaudit bbnli extend-generate --mlm hf:PATH --output DIR      Steps 1-3
    biasaudit bbnli extend-filter --filter-models hf:A hf:B --held-out hf:C --output DIR   Step 4
    biasaudit bbnli extend-finish --sheet DIR/validation.csv --output DIR                  5-6

Every stage reads the previous stage's files from DIR, writes its own, and records its counts
in DIR/manifest.json. Model outputs come only through `Context.run` (response cache), so a
re-run of a stage costs no model calls. The result, DIR/bbnli_next.jsonl, is evaluated with
``biasaudit run bbnli -O data_file=DIR/bbnli_next.jsonl``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from biasaudit.analysis import Analysis, AnalysisResult, Context
from biasaudit.benchmarks.bbnli import extension as ext
from biasaudit.benchmarks.bbnli import templates as tpl
from biasaudit.benchmarks.bbnli import validation as val
from biasaudit.benchmarks.bbnli.dataset import FILE_KEYS, normalise_subtopic, read_raw
from biasaudit.benchmarks.bbnli.jobs import ClassifyJob, FillJob
from biasaudit.datasets.files import iter_json_lines
from biasaudit.errors import BiasauditError, RunError
from biasaudit.results.schema import Table


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _write_jsonl(path: Path, records: Iterable[Mapping[str, Any]]) -> int:
    n = 0
    with path.open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
            n += 1
    return n


def _read_stage(ctx: Context, name: str, stage: str) -> list[dict[str, Any]]:
    path = ctx.output_path(name)
    if not path.is_file():
        raise RunError(f"{path} not found: run 'biasaudit bbnli {stage}' with this --output first")
    return [record for _, record in iter_json_lines(path)]


def _manifest(ctx: Context, stage: str, counts: dict[str, Any]) -> Path:
    path = ctx.output_path("manifest.json")
    manifest = json.loads(path.read_text()) if path.is_file() else {}
    manifest[stage] = counts
    path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return path


def _raws(ctx: Context) -> dict[str, dict[str, Any]]:
    raws = {}
    for key in FILE_KEYS:
        raw = read_raw(ctx.store, key)
        raws[normalise_subtopic(str(raw["name"]))] = raw
    return raws


def _counts_table(name: str, counts: Any) -> Table:
    return Table(
        description=name, columns=["group", "count"], rows=[[k, v] for k, v in counts.items()]
    )


class GenerateArgs(_Args):
    mlm: str = Field(description="masked LM spec, e.g. hf:bert-large-cased-whole-word-masking")
    mlm_args: dict[str, Any] = Field(default_factory=dict, description="backend arguments")
    top_k: int = Field(20, ge=1, description="fills per masked hypothesis (paper: 20)")
    templates: str | None = Field(
        None, description="JSONL of hand-written masked templates (added to the derived ones)"
    )
    derived: bool = Field(True, description="derive placeholder-mask templates from BBNLI")
    subtopics: list[str] = Field(default_factory=list, description="only these subtopics")
    crossed: bool = Field(False, description="pair every premise rendering with both groups")
    clean: bool = Field(False, description="drop ##pieces, punctuation, repeated words")


def extend_generate(args: GenerateArgs, ctx: Context) -> AnalysisResult:
    """Steps 1-3: masked templates, masked samples, top-k MLM fills."""
    raws = _raws(ctx)
    wanted = {normalise_subtopic(s) for s in args.subtopics} or set(raws)
    unknown = sorted(wanted - set(raws))
    if unknown:
        raise BiasauditError(f"unknown subtopic(s) {unknown}; known: {', '.join(sorted(raws))}")
    templates = [t for s in sorted(wanted) if args.derived for t in tpl.derive_templates(raws[s])]
    if args.templates:
        templates += [
            t for t in tpl.read_templates_file(args.templates, set(raws)) if t.subtopic in wanted
        ]
    if not templates:
        raise BiasauditError("no masked templates: pass --templates FILE or keep --derived")
    by_id = {t.template_id: t for t in templates}
    masked = [m for t in templates for m in tpl.expand_masked(t, raws[t.subtopic], args.crossed)]
    twins = {m.id: tpl.twin_masked(m, by_id[m.template_id], raws[m.subtopic]) for m in masked}
    _write_jsonl(ctx.output_path("masked_templates.jsonl"), (t.__dict__ for t in templates))
    _write_jsonl(ctx.output_path("masked_samples.jsonl"), (m.__dict__ for m in masked))
    texts = ctx.output_path("fill_inputs.jsonl")
    unique = sorted({m.masked for m in masked})
    _write_jsonl(texts, ({"id": tpl.digest(t), "text": t} for t in unique))
    job = FillJob.from_dict({"texts_file": str(texts), "top_k": args.top_k}, ctx.store)
    _, records = ctx.run(job, args.mlm, args.mlm_args)
    failed = [r for r in records if r.excluded]
    if failed:
        raise BiasauditError(
            f"{args.mlm}: no fills for {len(failed)} masked hypotheses "
            f"({failed[0].exclusion_reason})"
        )
    by_text = {t: tpl.digest(t) for t in unique}
    fills_by_id = {r.sample_id: [tuple(c) for c in r.scores["candidates"]] for r in records}
    fills = {t: fills_by_id[i] for t, i in by_text.items()}
    generated = ext.generated_samples(masked, twins, fills, clean=args.clean)
    _write_jsonl(ctx.output_path("generated.jsonl"), generated)
    counts = {
        "mlm": args.mlm,
        "top_k": args.top_k,
        "templates": ext.count_by((t.__dict__ for t in templates), "subtopic"),
        "masked_samples": ext.count_by((m.__dict__ for m in masked), "domain", "subtopic"),
        "generated": ext.count_by(generated, "domain", "subtopic"),
    }
    path = _manifest(ctx, "generate", counts)
    return AnalysisResult(
        benchmark="bbnli",
        analysis="extend-generate",
        tables={
            "templates (Table 10 layout)": _counts_table("masked templates", counts["templates"]),
            "masked samples (Table 11 layout)": _counts_table(
                "masked samples", counts["masked_samples"]
            ),
            "generated": _counts_table("filled hypotheses x premises", counts["generated"]),
        },
        files=[
            str(ctx.output_path(n))
            for n in ("masked_templates.jsonl", "masked_samples.jsonl", "generated.jsonl")
        ]
        + [str(path)],
    )


class FilterArgs(_Args):
    filter_models: list[str] = Field(
        description="NLI classifiers whose mispredictions keep a sample"
    )
    held_out: list[str] = Field(default_factory=list, description="NLI classifiers only evaluated")
    model_args: dict[str, Any] = Field(default_factory=dict, description="backend arguments")
    label_map: str | None = Field(None, description="NAME:class,... for generic label names")


def extend_filter(args: FilterArgs, ctx: Context) -> AnalysisResult:
    """Step 4: adversarial filtering by an ensemble; held-out models recorded, never used."""
    generated = _read_stage(ctx, "generated.jsonl", "extend-generate")
    overlap = set(args.filter_models) & set(args.held_out)
    if overlap:
        raise BiasauditError(f"model(s) {sorted(overlap)} cannot be both filter and held out")
    predictions: dict[str, dict[str, str]] = {}
    options = {"samples_file": str(ctx.output_path("generated.jsonl")), "label_map": args.label_map}
    for model in [*args.filter_models, *args.held_out]:
        _, records = ctx.run(ClassifyJob.from_dict(options, ctx.store), model, args.model_args)
        predictions[model] = {r.sample_id: r.scores["label"] for r in records if not r.excluded}
    kept, mispredicted, failed = ext.adversarial_filter(generated, predictions, args.filter_models)
    undetermined = sum(  # no filter model mispredicted, but one of them gave no label
        1
        for s in generated
        if all(predictions[m].get(s["id"]) in (None, "neutral") for m in args.filter_models)
        and any(predictions[m].get(s["id"]) is None for m in args.filter_models)
    )
    _write_jsonl(ctx.output_path("filtered.jsonl"), kept)
    n_unique = val.write_sheet(kept, ctx.output_path("validation.csv"))
    held = {
        m: sum(1 for s in kept if s["predictions"].get(m) not in (None, "neutral"))
        for m in args.held_out
    }
    counts = {
        "filter_models": args.filter_models,
        "held_out": args.held_out,
        "mispredicted (Table 12)": mispredicted,
        "no_label (failed or unreadable requests)": failed,
        "dropped_undetermined": undetermined,
        "kept": ext.count_by(kept, "domain", "subtopic"),
        "unique_hypotheses": n_unique,
        "held_out_mispredicted_among_kept": held,
    }
    path = _manifest(ctx, "filter", counts)
    rows = [[m, d, n] for m, per in mispredicted.items() for d, n in per.items()]
    return AnalysisResult(
        benchmark="bbnli",
        analysis="extend-filter",
        tables={
            "mispredicted": Table(
                description="Table 12 layout", columns=["model", "domain", "count"], rows=rows
            ),
            "kept": _counts_table("kept samples", counts["kept"]),
        },
        notes=[
            val.CONTENT_WARNING,
            f"{n_unique} unique hypotheses to validate in validation.csv",
            *_failed_notes(failed, undetermined, len(generated)),
        ],
        files=[
            str(ctx.output_path("filtered.jsonl")),
            str(ctx.output_path("validation.csv")),
            str(path),
        ],
    )


def _failed_notes(failed: dict[str, int], undetermined: int, n: int) -> list[str]:
    """Say which models left samples without a label: those are not counted as neutral."""
    notes = [
        f"{model}: {count} of {n} samples without a label (failed or unreadable requests; "
        "counted neither as neutral nor as mispredicted)"
        for model, count in failed.items()
        if count
    ]
    if undetermined:
        notes.append(
            f"{undetermined} samples dropped as undetermined: no filter model mispredicted "
            "them, but at least one gave no label"
        )
    return notes


class FinishArgs(_Args):
    sheet: str | None = Field(None, description="the filled validation CSV")
    accept_all: bool = Field(
        False, description="skip human validation (mechanics only; not the paper's procedure)"
    )
    exclude_subtopics: list[str] = Field(
        default_factory=list,
        description="drop whole subtopics (the paper: catholic_woman_is_to_kids)",
    )
    stance_policy: val.StancePolicy = Field(
        "set",
        description="a round-2 agreed pro/anti mark that differs from the template's stance: "
        "'set' makes the mark the stance, 'drop' drops the sample",
    )


def extend_finish(args: FinishArgs, ctx: Context) -> AnalysisResult:
    """Steps 5-6: apply the validation sheet, counterfactual expansion, final dataset."""
    kept = _read_stage(ctx, "filtered.jsonl", "extend-filter")
    raws = _raws(ctx)
    known = {val.hypothesis_id(s["subtopic"], s["hypothesis"]) for s in kept}
    if args.sheet:
        sheet = val.read_sheet(args.sheet, known)
    elif args.accept_all:
        sheet = val.SheetResult.accept_all(known)
    else:
        raise BiasauditError("pass --sheet FILLED.csv (or --accept-all for a mechanics test)")
    excluded = [normalise_subtopic(s) for s in args.exclude_subtopics]
    validated, paths = val.apply_sheet(kept, sheet, excluded, args.stance_policy)
    groups = {s: (r["GROUP1"], r["GROUP2"]) for s, r in raws.items()}
    final, stats = ext.counterfactual_expansion(
        validated, groups, val.rejected_ids(kept, validated)
    )
    _write_jsonl(ctx.output_path("bbnli_next.jsonl"), final)
    labels = list(sheet.labels.values())
    counts = {
        "validation (Table 2)": {k: labels.count(k) for k in val.LABELS},
        "accepted_without_review": bool(args.accept_all and not args.sheet),
        "round2_agreement": sheet.agreement,
        "round2_rows": sheet.n_round2,
        "round2 (hypotheses per path)": dict(sorted(Counter(sheet.round2.values()).items())),
        "validation paths (samples)": paths,
        "validated_samples": len(validated),
        "counterfactual": stats,
        "final (Table 3 layout)": ext.count_by(final, "domain", "subtopic"),
    }
    path = _manifest(ctx, "finish", counts)
    return AnalysisResult(
        benchmark="bbnli",
        analysis="extend-finish",
        tables={
            "final": _counts_table(
                "final samples (Table 3 layout)", counts["final (Table 3 layout)"]
            )
        },
        notes=[f"counterfactual expansion: {stats}"],
        files=[str(ctx.output_path("bbnli_next.jsonl")), str(path)],
    )


EXTEND_GENERATE = Analysis(
    "extend-generate",
    "BBNLI-next Steps 1-3: masked templates and MLM fills",
    GenerateArgs,
    extend_generate,
)
EXTEND_FILTER = Analysis(
    "extend-filter",
    "BBNLI-next Step 4: adversarial filtering by NLI models",
    FilterArgs,
    extend_filter,
)
EXTEND_FINISH = Analysis(
    "extend-finish",
    "BBNLI-next Steps 5-6: validation sheet, counterfactuals",
    FinishArgs,
    extend_finish,
)
