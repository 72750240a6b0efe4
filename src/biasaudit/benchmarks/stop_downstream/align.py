"""`biasaudit stop align` (listed under STOP): STOP's alignment experiment, end to end
(§4 "Fine-tuning", A.5).

1. the alignment conversations (STOP's `export-finetune` analysis, run through the plugin
   API: the authors' system prompt, human majority or ideal answers), optionally thinned to
   `--examples` evenly spaced ones;
2. a LoRA fine-tune of `--model` on them (`biasaudit.finetune`; resumable, provenance);
3. `stop_downstream` on the same items with the base model and with the merged model;
4. per task, the answer rate and task performance before and after, their difference in
   points and the relative change (the paper's statistic), with paired bootstrap CIs over
   items (`stop_downstream.paired`).

Everything lands in `--output`: ``train.jsonl``, ``finetune/`` (the model, loss curve,
provenance), ``paired_items.jsonl`` (each item's outcome before and after). A rerun resumes
the fine-tune from its checkpoint and the downstream runs from the response cache.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from biasaudit.analysis import Analysis, AnalysisResult, Context
from biasaudit.analysis import analysis_of as analysis
from biasaudit.benchmarks.stop_downstream.benchmark import (
    DownstreamOptions,
    StopDownstream,
    Task,
    evenly_spaced,
)
from biasaudit.benchmarks.stop_downstream.paired import (
    Outcome,
    chance_level,
    controlled_change,
    paired_change,
    paired_outcomes,
)
from biasaudit.finetune.controls import yes_no_format_control
from biasaudit.metrics.controlled import COLUMNS, controlled_verdict
from biasaudit.results.schema import SampleRecord, Table

if TYPE_CHECKING:
    pass

REFERENCE = "Morabito et al. 2024 (STOP), §4 Fine-tuning and App. A.5"


def _default_tasks() -> list[Task]:
    return ["stereoset", "crows_pairs"]


class AlignArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    model: str = Field(description="base model to align: hf:FOLDER or hf:embedded")
    source: Literal["human", "ideal"] = Field(
        "ideal", description="answers to train on: human majority (the paper) or ideal"
    )
    annotations: str | None = Field(None, description="annotation file (for --source human)")
    severity: list[str] = Field(default_factory=list, description="only these severities")
    demographic: list[str] = Field(default_factory=list, description="only these demographics")
    examples: int | None = Field(
        None, ge=1, description="at most N conversations, evenly spaced (default: all)"
    )
    lora: dict[str, Any] = Field(
        default_factory=dict, description="LoRA settings KEY=VALUE (see biasaudit finetune)"
    )
    stop_after: int | None = Field(None, ge=1, description="fine-tune steps in this call")
    tasks: list[Task] = Field(default_factory=_default_tasks, description="downstream tasks")
    per_task: int | None = Field(30, ge=1, description="downstream items per task")
    max_tokens: int = Field(48, ge=1, description="new tokens per downstream reply")
    model_args: dict[str, Any] = Field(
        default_factory=dict, description="hf arguments of both downstream runs (e.g. threads=1)"
    )
    n_resamples: int = Field(2000, ge=100, description="paired bootstrap resamples")
    controls: Literal["format", "none"] = Field(
        "format",
        description="control arm: 'format' (default) also fine-tunes on as many arithmetic "
        "Yes/No conversations of the same shape, no social content; 'none' runs no control "
        "and the result says so",
    )


def _outcomes(records: list[SampleRecord]) -> dict[str, tuple[str, Outcome]]:
    """Sample id -> (task, (answered 0/1, correct 0/1 or None)); errors are left out."""
    out = {}
    for record in records:
        if record.excluded:
            continue
        correct = record.scores.get("correct")
        out[record.sample_id] = (
            str(record.groups["task"]),
            (record.scores["answered"] / 100.0, None if correct is None else correct / 100.0),
        )
    return out


def _rows(
    before: dict[str, tuple[str, Outcome]],
    after: dict[str, tuple[str, Outcome]],
    tasks: list[str],
    args: AlignArgs,
    seed: int,
) -> list[list[Any]]:
    rows = []
    for task in [*tasks, "all"]:
        keep = [i for i in before if task == "all" or before[i][0] == task]
        b = {i: before[i][1] for i in keep}
        a = {i: after[i][1] for i in keep if i in after}
        _, old, new = paired_outcomes(b, a)
        if not old:
            continue
        for metric in ("answer_rate", "performance"):
            change = paired_change(metric, old, new, seed=seed, n_resamples=args.n_resamples)
            pct = None if change.relative is None else 100.0 * change.relative
            rel_ci = [None if x is None else 100.0 * x for x in change.relative_ci]
            rows.append(
                [
                    task,
                    metric,
                    change.n_items,
                    change.before,
                    change.after,
                    change.points,
                    *change.points_ci,
                    pct,
                    *rel_ci,
                ]
            )
    return rows


def align(args: AlignArgs, ctx: Context) -> AnalysisResult:
    """Fine-tune on STOP's alignment data and compare stop_downstream before and after."""
    from biasaudit.finetune.analysis import (
        control_finetune,
        finetune_in_folder,
        lora_settings,
        write_chat_jsonl,
    )
    from biasaudit.finetune.base import trainable_base
    from biasaudit.finetune.data import read_examples

    trainable_base(args.model)  # refuse an untrainable model before any work
    export = analysis("stop", "export-finetune")  # STOP's own export, through the plugin API
    train_file = ctx.output_path("train.jsonl")
    fields = ("source", "annotations", "severity", "demographic")
    exported = export.run(
        export.Args.model_validate(
            {**args.model_dump(include=set(fields)), "file": str(train_file)}
        ),
        ctx,
    )
    everything = read_examples(train_file)
    examples = [everything[i] for i in evenly_spaced(len(everything), args.examples)]
    write_chat_jsonl(train_file, examples)
    what = exported.notes[0] if exported.notes else "STOP export-finetune"
    settings = lora_settings(args.lora, ctx)
    tuned, result = finetune_in_folder(
        ctx,
        args.model,
        examples,
        settings,
        args.stop_after,
        benchmark="stop",
        analysis="align",
        note=f"trained on {len(examples)} of: {what}",
        files=[str(train_file)],
    )
    control_spec = None
    if args.controls == "format":
        control_spec = control_finetune(
            ctx,
            args.model,
            yes_no_format_control(examples, ctx.seed),
            settings,
            args.stop_after,
            result,
            note=f"control: {len(examples)} format-only conversations (arithmetic Yes/No, "
            "the treatment's turns and answers, no social content), the same settings",
        )
    if not tuned.complete or tuned.model_spec is None:
        result.notes.append("downstream comparison not run: the fine-tune is partial")
        return result
    if args.controls == "format" and control_spec is None:
        result.notes.append("downstream comparison not run: the control fine-tune is partial")
        return result
    options = DownstreamOptions(
        tasks=args.tasks, per_task=args.per_task, max_tokens=args.max_tokens
    )
    bench = StopDownstream(options, ctx.store, ctx.seed)
    _, before_records = ctx.run(bench, args.model, args.model_args)
    _, after_records = ctx.run(bench, tuned.model_spec, args.model_args)
    before, after = _outcomes(before_records), _outcomes(after_records)
    control: dict[str, tuple[str, Outcome]] = {}
    if control_spec is not None:
        _, control_records = ctx.run(bench, control_spec, args.model_args)
        control = _outcomes(control_records)
        tables, verdicts = controlled_tables(before, after, control, list(args.tasks), args, ctx)
        result.tables.update(tables)
        result.notes.extend(verdicts)
    else:
        result.notes.append(NO_CONTROL)
    result.tables["accuracy_vs_chance"] = _chance_table(
        bench, {"base": before, "treated": after, **({"control": control} if control else {})}
    )
    with ctx.output_path("paired_items.jsonl").open("w", encoding="utf-8") as handle:
        for item in sorted(before.keys() | after.keys()):
            handle.write(
                json.dumps(
                    {
                        "id": item,
                        "before": before.get(item, (None, None))[1],
                        "after": after.get(item, (None, None))[1],
                    }
                )
                + "\n"
            )
    result.files.append(str(ctx.output_path("paired_items.jsonl")))
    result.tables["paired_change"] = Table(
        description="stop_downstream before and after fine-tuning on the same items: value (%), "
        "difference in points and relative change (after − before) / before in %, each with "
        f"a paired bootstrap 95% CI over items ({args.n_resamples} resamples, seed {ctx.seed}); "
        "performance is % correct among each run's answered items; None: not measurable "
        "(no answered item, or before = 0 in the estimate or in some resample)",
        columns=[
            "task",
            "metric",
            "n_items",
            "before",
            "after",
            "points",
            "points_ci_low",
            "points_ci_high",
            "relative_change_%",
            "relative_ci_low",
            "relative_ci_high",
        ],
        rows=_rows(before, after, list(args.tasks), args, ctx.seed),
    )
    lost = len(before.keys() ^ after.keys())
    result.notes.append(
        f"{len(before.keys() & after.keys())} items scored in both runs"
        + (f"; {lost} items with a request error in one run left out" if lost else "")
        + f" ({REFERENCE}: answer rate +9% on BBQ to +191% on StereoSet for Llama 3-70B)"
    )
    return result


NO_CONTROL = (
    "NO CONTROL ARM RAN (--controls none): the before/after change mixes what the STOP "
    "conversations teach with the reply format any Yes/No fine-tune teaches; a format-only "
    "control of the same shape raised the answer rate about as much in our measurement "
    "(docs/benchmarks/stop.md). Do not read the change as the alignment data's effect."
)


def controlled_tables(
    before: dict[str, tuple[str, Outcome]],
    treated: dict[str, tuple[str, Outcome]],
    control: dict[str, tuple[str, Outcome]],
    tasks: list[str],
    args: AlignArgs,
    ctx: Context,
) -> tuple[dict[str, Table], list[str]]:
    """Treatment, control and treatment − control per task and metric, and the verdicts."""
    rows: list[list[Any]] = []
    verdicts: list[str] = []
    for task in [*tasks, "all"]:
        ids = sorted(
            i
            for i in before.keys() & treated.keys() & control.keys()
            if task == "all" or before[i][0] == task
        )
        if not ids:
            continue
        for metric in ("answer_rate", "performance"):
            change = controlled_change(
                metric,
                [before[i][1] for i in ids],
                [treated[i][1] for i in ids],
                [control[i][1] for i in ids],
                seed=ctx.seed,
                n_resamples=args.n_resamples,
            )
            rows.append([task, metric, change.n_items, *change.cells()])
            verdicts.append(controlled_verdict(change, f"{task} {metric.replace('_', ' ')}"))
    table = Table(
        description="stop_downstream on the same items with the base model, the model tuned on "
        "STOP's conversations (treated) and the format-only control (as many arithmetic Yes/No "
        "conversations of the same shape, no social content, the same settings): each value "
        "(%), the treatment and control effects against the base model and treatment − "
        f"control, in points with paired bootstrap 95% CIs ({args.n_resamples} resamples of "
        f"items, all three runs recomputed on each resample, seed {ctx.seed}); performance is % "
        "correct among each run's answered items",
        columns=["task", "metric", "n_items", *COLUMNS],
        rows=rows,
    )
    return {"treatment_vs_control": table}, verdicts


def _chance_table(bench: StopDownstream, runs: dict[str, dict[str, tuple[str, Outcome]]]) -> Table:
    """Accuracy among answered items beside what a random option would score on them."""
    shape = {s.id: (len(s.data["options"]), len(s.data["correct"])) for s in bench.load_samples()}
    rows: list[list[Any]] = []
    for name, outcomes in runs.items():
        for task in sorted({t for t, _ in outcomes.values()}):
            answered = [i for i, (t, o) in outcomes.items() if t == task and o[0]]
            correct = [outcomes[i][1][1] or 0.0 for i in answered]
            accuracy = 100.0 * sum(correct) / len(answered) if answered else None
            chance = chance_level([shape[i][0] for i in answered], [shape[i][1] for i in answered])
            rows.append([task, name, len(answered), accuracy, chance])
    return Table(
        description="% correct among answered items and the chance level on the same answered "
        "items (mean over items of correct options / options: StereoSet 2 of 3, CrowS-Pairs 1 "
        "of 2, BBQ 1 of 3): an answer rate that rises while accuracy stays at chance is a "
        "change of reply format, not of judgement",
        columns=["task", "run", "n_answered", "accuracy", "chance"],
        rows=rows,
    )


ALIGN = Analysis(
    "align", "fine-tune on STOP's alignment data, stop_downstream before/after", AlignArgs, align
)
