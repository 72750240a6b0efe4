"""`biasaudit finetune`: the core fine-tuning workflow as a typed analysis.

    biasaudit finetune --model hf:embedded --data stop_ft.jsonl --lora max_steps=40 -o runs/ft

The result (schema `AnalysisResult`) lists the loss per step, the provenance and the model
spec of the merged model (``hf:runs/ft/model``). A rerun with the same output folder resumes
from the latest checkpoint, or returns the finished model without training.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from biasaudit.analysis import Analysis, AnalysisResult, Context
from biasaudit.finetune.data import Messages, read_examples
from biasaudit.finetune.settings import LoraSettings
from biasaudit.finetune.trainer import FinetuneResult, finetune
from biasaudit.options import parse_options
from biasaudit.results.schema import MetricValue, Table


class FinetuneArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    model: str = Field(description="base model, hf:FOLDER or hf:embedded")
    data: str = Field(description="chat JSONL ({'messages': [...]}) or Alpaca JSON/JSONL")
    lora: dict[str, Any] = Field(
        default_factory=dict,
        description="LoRA settings KEY=VALUE: r, alpha, dropout, learning_rate, max_steps, "
        "epochs, batch_size, max_length, save_every, quantize, ... (see LoraSettings)",
    )
    stop_after: int | None = Field(
        None, ge=1, description="stop after this many steps in total (resume later)"
    )


def lora_settings(values: dict[str, Any], ctx: Context, **defaults: Any) -> LoraSettings:
    """`--lora KEY=VALUE` pairs over `defaults`, seeded by the run's --seed unless given."""
    return parse_options(LoraSettings, {"seed": ctx.seed, **defaults, **values}, "--lora")


def result_parts(result: FinetuneResult) -> tuple[list[MetricValue], dict[str, Table], list[str]]:
    """Metrics, tables and notes describing one fine-tune (shared by the workflows)."""
    record = result.provenance
    metrics = [
        MetricValue(
            name="final_training_loss",
            value=record.final_loss,
            n=record.steps_done,
            statistic="mean token cross-entropy of the last step",
            description="training loss of the last optimizer step (assistant tokens only)",
        )
    ]
    tables = {
        "training_loss": Table(
            description="loss per optimizer step (also loss.csv / loss.svg)",
            columns=["step", "loss"],
            rows=[[i, round(loss, 6)] for i, loss in enumerate(result.losses, start=1)],
        )
    }
    notes = [
        f"fine-tune {record.status}: {record.steps_done}/{record.steps_total} steps on "
        f"{record.n_examples} examples ({record.n_learned_tokens} learned tokens), "
        f"{record.seconds} s",
        f"base {record.base_label} sha256 {record.base_sha256[:12]}, data sha256 "
        f"{record.data_sha256[:12]}",
    ]
    if record.model_spec:
        notes.append(f"merged model: {record.model_spec}")
    else:
        notes.append("partial: rerun with the same --output to continue")
    return metrics, tables, notes


def finetune_files(result: FinetuneResult) -> list[str]:
    out = result.output_dir
    names = ["provenance.json", "loss.csv", "loss.svg", "adapter", "model"]
    return [str(out / n) for n in names if (out / n).exists()]


def finetune_in_folder(
    ctx: Context,
    base: str,
    examples: list[Messages],
    settings: LoraSettings,
    stop_after: int | None,
    *,
    benchmark: str,
    analysis: str,
    note: str,
    files: list[str],
) -> tuple[FinetuneResult, AnalysisResult]:
    """A workflow's fine-tune in OUTPUT/finetune, and the start of its result."""
    tuned = finetune(
        base,
        examples,
        ctx.output_path("finetune"),
        settings,
        progress=ctx.progress,
        stop_after=stop_after,
    )
    metrics, tables, notes = result_parts(tuned)
    result = AnalysisResult(
        benchmark=benchmark,
        analysis=analysis,
        source=base,
        metrics=metrics,
        tables=tables,
        notes=[note, *notes],
        files=[*files, *finetune_files(tuned)],
    )
    return tuned, result


def write_chat_jsonl(path: Path, conversations: Sequence[Messages]) -> str:
    """Conversations as chat JSONL (one ``{"messages": [...]}`` a line); the path."""
    with path.open("w", encoding="utf-8") as handle:
        handle.writelines(
            json.dumps({"messages": m}, ensure_ascii=False) + "\n" for m in conversations
        )
    return str(path)


def control_finetune(
    ctx: Context,
    base: str,
    conversations: list[Messages],
    settings: LoraSettings,
    stop_after: int | None,
    result: AnalysisResult,
    *,
    note: str,
) -> str | None:
    """A control arm's fine-tune in OUTPUT/control (its train.jsonl written there), with the
    treatment's settings; its notes, files and metrics (``control_*``) join `result`. The
    merged model's spec when complete, else None."""
    sub = dataclasses.replace(ctx, output_dir=ctx.output_path("control"))
    train = write_chat_jsonl(sub.output_path("train.jsonl"), conversations)
    tuned, part = finetune_in_folder(
        sub,
        base,
        conversations,
        settings,
        stop_after,
        benchmark=result.benchmark,
        analysis=result.analysis,
        note=note,
        files=[train],
    )
    result.notes += [f"control: {n}" for n in part.notes]
    result.files += part.files
    result.metrics += [m.model_copy(update={"name": f"control_{m.name}"}) for m in part.metrics]
    return tuned.model_spec if tuned.complete else None


def run_finetune(args: FinetuneArgs, ctx: Context) -> AnalysisResult:
    """LoRA fine-tune of a local causal LM on chat examples (see biasaudit.finetune)."""
    settings = lora_settings(args.lora, ctx)
    out = ctx.output_path("provenance.json").parent
    result = finetune(
        args.model,
        read_examples(args.data),
        out,
        settings,
        progress=ctx.progress,
        stop_after=args.stop_after,
    )
    metrics, tables, notes = result_parts(result)
    return AnalysisResult(
        benchmark="finetune",
        analysis="finetune",
        source=f"{args.model} on {args.data}",
        metrics=metrics,
        tables=tables,
        notes=notes,
        files=finetune_files(result),
    )


FINETUNE = Analysis(
    "finetune", "LoRA fine-tune of a local causal LM (PEFT)", FinetuneArgs, run_finetune
)
