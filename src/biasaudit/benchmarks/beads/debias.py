"""`biasaudit beads debias`: BEADs' debiasing by instruction fine-tuning (§4.2.3, §5.4,
Table 13), end to end.

1. the language-generation pairs (biased, debiased): the release's CSV (or the demo set),
   or an Alpaca JSON/JSONL file (instruction, input = biased, output = debiased);
2. a seeded split: `test_size` pairs held out (the paper judged 500 curated items), the
   rest trained on as chat turns: user = Figure 3's rewrite prompt (prompt 5) with the biased
   sentence, assistant = the debiased sentence;
3. a LoRA fine-tune (`biasaudit.finetune`; QLoRA with `--lora quantize=4bit` on a GPU), with
   the paper's Table A6 hyperparameters as defaults (r 64, alpha 16, dropout 0.2, lr 2e-5
   constant, warm-up 0.05, weight decay 0.001, max grad norm 0.3, 2 epochs, batch 16);
4. the `rewrite` analysis on the held-out pairs with the base model and with the fine-tuned
   one, judged by the configured judge, and the paper's metrics side by side;
5. by default a **format-only control** (``--controls format``): as many conversations of the
   same shape (the same rewrite prompt around a sentence about objects and numbers, answered
   by that sentence in other words; `biasaudit.finetune.controls.rewrite_format_control`)
   trained with the same settings, its rewrites judged on the same held-out pairs, and a
   ``treatment_vs_control`` table: each measure for the base, treated and control models,
   treated − base, control − base and treated − control with paired bootstrap CIs over the
   held-out pairs (`biasaudit.metrics.controlled`). The verdicts follow treated − control.
"""

from __future__ import annotations

import csv
import dataclasses
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from biasaudit.analysis import Analysis, AnalysisResult, Context
from biasaudit.benchmarks.beads import prompts
from biasaudit.benchmarks.beads.analyses import ItemValues, RewriteArgs, rewrite_judged_items
from biasaudit.benchmarks.beads.benchmark import Beads
from biasaudit.benchmarks.beads.judging import JUDGE_QUESTIONS
from biasaudit.errors import DataError
from biasaudit.finetune.controls import rewrite_format_control
from biasaudit.finetune.data import read_records
from biasaudit.metrics.controlled import COLUMNS, controlled_change, controlled_verdict
from biasaudit.results.schema import Table

SPLIT = "5-Language-Generation/bias_debias"
#: BEADs Table A6 (language generation), as LoRA settings
PAPER_LORA: dict[str, Any] = {
    "r": 64,
    "alpha": 16,
    "dropout": 0.2,
    "learning_rate": 2e-5,
    "warmup_ratio": 0.05,
    "weight_decay": 0.001,
    "max_grad_norm": 0.3,
    "epochs": 2,
    "batch_size": 16,
}


NO_CONTROL = (
    "NO CONTROL ARM RAN (--controls none): the before/after rewrites mix what the debiasing "
    "pairs teach with what any rewrite fine-tune teaches (the reply format); stop align's "
    "format-only control found the format alone explained its change (docs/finetune.md). "
    "Read the change accordingly."
)


class DebiasArgs(RewriteArgs):
    alpaca: str | None = Field(None, description="Alpaca JSON/JSONL of pairs (instead of CSV)")
    test_size: int = Field(500, ge=1, description="held-out pairs (the paper: 500)")
    lora: dict[str, Any] = Field(
        default_factory=dict, description="LoRA settings KEY=VALUE over the Table A6 defaults"
    )
    stop_after: int | None = Field(None, ge=1, description="fine-tune steps in this call")
    controls: Literal["format", "none"] = Field(
        "format",
        description="control arm: 'format' (as many neutral-sentence rewrite conversations, "
        "the same settings) or 'none' (before/after only, with a loud note)",
    )
    n_resamples: int = Field(2000, ge=100, description="paired bootstrap resamples")


def _pairs(args: DebiasArgs, ctx: Context) -> list[tuple[str, str]]:
    if args.alpaca:
        file = Path(args.alpaca)
        if not file.is_file():
            raise DataError(f"Alpaca file not found: {file}")
        out = []
        for where, record in read_records(file):
            biased = record.get("input") if isinstance(record, dict) else None
            debiased = record.get("output") if isinstance(record, dict) else None
            if not isinstance(biased, str) or not biased or not isinstance(debiased, str):
                raise DataError(f"{where}: Alpaca pairs need 'input' (biased) and 'output'")
            out.append((biased, debiased))
        return out
    bench = Beads.from_dict({"task": "rewrite", "data": args.data}, ctx.store, ctx.seed)
    assert isinstance(bench, Beads)
    return [(r["biased_text"], r["debiased_text"]) for r in bench.data.load(SPLIT).rows]


def split_pairs(
    pairs: list[tuple[str, str]], test_size: int, seed: int
) -> tuple[list[int], list[int]]:
    """(train indices, test indices): a seeded shuffle, the first `test_size` held out."""
    if test_size >= len(pairs):
        raise DataError(f"{len(pairs)} pairs: --test-size {test_size} leaves nothing to train on")
    order = list(range(len(pairs)))
    random.Random(f"beads-debias:{seed}").shuffle(order)
    return sorted(order[test_size:]), sorted(order[:test_size])


def _side_by_side(before: AnalysisResult, after: AnalysisResult) -> Table:
    rows = []
    for label, result, kinds in (
        ("", before, ("original", "reference")),
        ("base model", before, ("model",)),
        ("fine-tuned", after, ("model",)),
    ):
        for metric, kind, value, low, high, n, _ in result.tables["by_kind"].rows:
            if kind in kinds:
                rows.append([metric, label or kind, value, low, high, n])
    rows.sort(key=lambda r: str(r[0]))
    return Table(
        description="Table 13 layout: each metric for the original biased sentences, the "
        "reference rewrites and the rewrites of the base and the fine-tuned model on the "
        "held-out pairs (value, bootstrap CI, n)",
        columns=["metric", "text", "value", "ci_low", "ci_high", "n"],
        rows=rows,
    )


def _finetune(
    args: DebiasArgs, ctx: Context, examples: list[Any], settings: Any, note: str, files: list[str]
) -> tuple[str | None, AnalysisResult]:
    """A LoRA fine-tune in ctx's folder; the merged model's spec when complete."""
    from biasaudit.finetune.analysis import finetune_in_folder

    tuned, result = finetune_in_folder(
        ctx,
        args.model,
        examples,
        settings,
        args.stop_after,
        benchmark="beads",
        analysis="debias",
        note=note,
        files=files,
    )
    return (tuned.model_spec if tuned.complete else None), result


def debias(args: DebiasArgs, ctx: Context) -> AnalysisResult:
    """Fine-tune on BEADs' debiasing pairs (and a format-only control); judge rewrites."""
    from biasaudit.finetune.base import trainable_base

    trainable_base(args.model)  # refuse an untrainable model before any work
    pairs = _pairs(args, ctx)
    train, test = split_pairs(pairs, args.test_size, ctx.seed)
    test_csv = ctx.output_path("test_pairs.csv")
    with test_csv.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["biased_text", "debiased_text"])
        writer.writerows(pairs[i] for i in test)
    examples = [
        [
            {"role": "user", "content": prompts.rewrite_prompt(pairs[i][0])},
            {"role": "assistant", "content": pairs[i][1]},
        ]
        for i in train
    ]
    from biasaudit.finetune.analysis import control_finetune, lora_settings

    settings = lora_settings(args.lora, ctx, **PAPER_LORA)
    spec, result = _finetune(
        args,
        ctx,
        examples,
        settings,
        f"{len(train)} pairs trained on, {len(test)} held out (seed {ctx.seed})",
        [str(test_csv)],
    )
    result.source = f"{args.model} judged by {args.judge}"
    control_spec = None
    if args.controls == "format":
        conversations = rewrite_format_control(examples, ctx.seed, prompts.rewrite_prompt)
        control_spec = control_finetune(
            ctx,
            args.model,
            conversations,
            settings,
            args.stop_after,
            result,
            note=f"control: {len(conversations)} format-only rewrite conversations (the same "
            "prompt around sentences about objects and numbers, no person or group), the same "
            "settings",
        )
    else:
        result.notes.append(NO_CONTROL)
    if spec is None:
        result.notes.append("rewrites not judged: the fine-tune is partial")
        return result
    if args.controls == "format" and control_spec is None:
        result.notes.append("rewrites not judged: the control fine-tune is partial")
        return result
    override = {SPLIT: str(test_csv)}
    runs, items = {}, {}
    arms = [("before", args.model), ("after", spec)]
    if control_spec is not None:
        arms.append(("control_rewrites", control_spec))
    for name, model in arms:
        sub = dataclasses.replace(ctx, output_dir=ctx.output_path(name))
        judged = args.model_copy(update={"model": model})
        runs[name], items[name] = rewrite_judged_items(judged, sub, override)
        result.files += runs[name].files
        result.notes += [f"{name}: {n}" for n in runs[name].notes]
    result.tables["side_by_side"] = _side_by_side(runs["before"], runs["after"])
    result.tables["judge_prompts"] = runs["before"].tables["judge_prompts"]
    if control_spec is not None:
        table, verdicts = controlled_table(
            items["before"], items["after"], items["control_rewrites"], args, ctx.seed
        )
        result.tables["treatment_vs_control"] = table
        result.notes += verdicts
        result.notes.append(
            "no chance level applies to rewriting: the judged shares are read against the "
            "base model and the control, not against guessing"
        )
    return result


#: measure -> (what it is, scale to the table's unit, unit)
MEASURES: dict[str, tuple[str, float, str]] = {
    "rewritten": ("% of held-out pairs with a parsed rewrite", 100.0, "points"),
    **{
        q: (f"% of judged rewrites the judge called {q} (yes)", 100.0, "points")
        for q in JUDGE_QUESTIONS
    },
    "p_biased": ("mean classifier P(biased) of the rewrites", 1.0, ""),
    "similarity": ("mean cosine similarity of rewrite and original", 1.0, ""),
}


def mean_present(scale: float) -> Any:
    """A run's statistic: `scale` × the mean of the items' values that exist (None if none)."""

    def value(outcomes: Sequence[float | None]) -> float | None:
        present = [v for v in outcomes if v is not None]
        return scale * sum(present) / len(present) if present else None

    return value


def controlled_table(
    before: ItemValues, treated: ItemValues, control: ItemValues, args: DebiasArgs, seed: int
) -> tuple[Table, list[str]]:
    """Each measure of the three runs on the held-out pairs all three rewrote or tried to."""
    ids = sorted(before.keys() & treated.keys() & control.keys())
    rows: list[list[Any]] = []
    verdicts: list[str] = []
    for measure, (what, scale, unit) in MEASURES.items():
        runs = [[run[i].get(measure) for i in ids] for run in (before, treated, control)]
        if all(v is None for run in runs for v in run):
            continue  # not asked in this experiment (no classifier)
        change = controlled_change(
            measure, *runs, value=mean_present(scale), seed=seed, n_resamples=args.n_resamples
        )
        present = [sum(v is not None for v in run) for run in runs]
        rows.append([measure, what, *present, *change.cells()])
        digits = 1 if unit else 3
        verdicts.append(
            controlled_verdict(
                change, measure, treatment="the debiasing pairs", unit=unit or "", digits=digits
            )
        )
    table = Table(
        description="rewrites of the held-out pairs by the base model, the model tuned on "
        "BEADs' debiasing pairs (treated) and the format-only control (as many rewrite "
        "conversations of neutral sentences, the same settings): each measure, the treatment "
        "and control effects against the base model and treatment − control, with paired "
        f"bootstrap 95% CIs ({args.n_resamples} resamples of held-out pairs, all three runs "
        f"recomputed on each resample, seed {seed}); n_*: pairs with a value in that run",
        columns=["measure", "what", "n_base", "n_treated", "n_control", *COLUMNS],
        rows=rows,
    )
    return table, verdicts


DEBIAS = Analysis(
    "debias", "fine-tune on BEADs' debiasing pairs, judge rewrites before/after", DebiasArgs, debias
)
