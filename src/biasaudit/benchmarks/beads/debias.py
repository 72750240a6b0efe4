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
   one, judged by the configured judge, and the paper's metrics side by side.
"""

from __future__ import annotations

import csv
import dataclasses
import random
from pathlib import Path
from typing import Any

from pydantic import Field

from biasaudit.analysis import Analysis, AnalysisResult, Context
from biasaudit.benchmarks.beads import prompts
from biasaudit.benchmarks.beads.analyses import RewriteArgs, rewrite_judged
from biasaudit.benchmarks.beads.benchmark import Beads
from biasaudit.errors import DataError
from biasaudit.finetune.data import read_records
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
    "NO CONTROL ARM RAN: the before/after rewrites mix what the debiasing pairs teach with what "
    "any rewrite fine-tune teaches (the reply format); stop align's format-only control found "
    "the format alone explained its change (docs/finetune.md). Read the change accordingly."
)


class DebiasArgs(RewriteArgs):
    alpaca: str | None = Field(None, description="Alpaca JSON/JSONL of pairs (instead of CSV)")
    test_size: int = Field(500, ge=1, description="held-out pairs (the paper: 500)")
    lora: dict[str, Any] = Field(
        default_factory=dict, description="LoRA settings KEY=VALUE over the Table A6 defaults"
    )
    stop_after: int | None = Field(None, ge=1, description="fine-tune steps in this call")


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


def debias(args: DebiasArgs, ctx: Context) -> AnalysisResult:
    """Fine-tune on BEADs' debiasing pairs; judge rewrites before and after."""
    from biasaudit.finetune.analysis import finetune_in_folder, lora_settings
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
    settings = lora_settings(args.lora, ctx, **PAPER_LORA)
    tuned, result = finetune_in_folder(
        ctx,
        args.model,
        examples,
        settings,
        args.stop_after,
        benchmark="beads",
        analysis="debias",
        note=f"{len(train)} pairs trained on, {len(test)} held out (seed {ctx.seed})",
        files=[str(test_csv)],
    )
    result.source = f"{args.model} judged by {args.judge}"
    result.notes.append(NO_CONTROL)
    if not tuned.complete or tuned.model_spec is None:
        result.notes.append("rewrites not judged: the fine-tune is partial")
        return result
    override = {SPLIT: str(test_csv)}
    runs = {}
    for name, spec in (("before", args.model), ("after", tuned.model_spec)):
        sub = dataclasses.replace(ctx, output_dir=ctx.output_path(name))
        runs[name] = rewrite_judged(args.model_copy(update={"model": spec}), sub, override)
        result.files += runs[name].files
        result.notes += [f"{name}: {n}" for n in runs[name].notes]
    result.tables["side_by_side"] = _side_by_side(runs["before"], runs["after"])
    result.tables["judge_prompts"] = runs["before"].tables["judge_prompts"]
    return result


DEBIAS = Analysis(
    "debias", "fine-tune on BEADs' debiasing pairs, judge rewrites before/after", DebiasArgs, debias
)
