"""BEADs analyses: ``biasaudit beads train`` and ``biasaudit beads rewrite``.

- ``train`` fine-tunes a bias / toxicity / sentiment classifier (train.py), saves a folder the
  ``hf`` backend loads, and evaluates it through the classify task of this benchmark.
- ``rewrite`` has a model rewrite biased sentences, then scores the original, the reference
  rewrite and the model's rewrite with a judge the user names (five yes/no questions,
  judging.py), optionally a bias classifier (P(biased) before/after), and sentence embeddings
  (meaning preservation). There is no default judge: ``--judge`` is required.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from biasaudit.analysis import Analysis, AnalysisResult, Context
from biasaudit.benchmarks.beads import judging
from biasaudit.benchmarks.beads.benchmark import Beads
from biasaudit.benchmarks.beads.dataset_labels import unnamed_sentiment_ids
from biasaudit.benchmarks.beads.tasks import LABELS
from biasaudit.errors import DataError
from biasaudit.results.schema import BenchmarkResult, MetricValue, SampleRecord, Table


class TrainArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    data: str = Field("demo", description="'demo' or a folder with the BEADs release")
    subtask: Literal["bias", "toxicity", "sentiment"] = Field("bias", description="label set")
    sentiment_names: dict[str, str] | None = Field(
        None, description='names of numeric sentiment ids, e.g. {"0": "negative", ...}'
    )
    train_split: str | None = Field(None, description="config/split to train on")
    valid_split: str | None = Field(None, description="config/split for early stopping")
    encoder: str | None = Field(None, description="encoder folder (default: all-MiniLM-L6-v2)")
    learning_rate: float = Field(2e-5, description="AdamW learning rate (Table A3)")
    batch_size: int = Field(16, description="training batch size (Table A3)")
    max_epochs: int = Field(20, description="epoch limit (Table A3: 20, early stopping)")
    patience: int = Field(3, description="epochs without a lower validation loss before stopping")
    weight_decay: float = Field(0.01, description="AdamW weight decay (Table A3)")
    threads: int = Field(1, description="torch threads")
    evaluate: bool = Field(True, description="evaluate the saved model on the validation split")


def _split(subtask: str, kind: str) -> str:
    prefix = {"bias": "bias", "toxicity": "toxic", "sentiment": "sentiment"}[subtask]
    return f"1-Text_Classification/{prefix}_{kind}"


def train(args: TrainArgs, ctx: Context) -> AnalysisResult:
    from biasaudit.benchmarks.beads.train import TrainConfig, train_classifier

    options: dict[str, Any] = {
        "data": args.data,
        "subtask": args.subtask,
        "sentiment_names": args.sentiment_names,
    }
    bench = Beads.from_dict(options, ctx.store, ctx.seed)
    assert isinstance(bench, Beads)
    train_key = args.train_split or _split(args.subtask, "train")
    valid_key = args.valid_split or _split(args.subtask, "valid")
    rows = {
        k: [(r["text"], r["label"]) for r in bench.data.load(k).rows]
        for k in (train_key, valid_key)
    }
    for key, pairs in rows.items():  # the same refusal as `run beads`, before any training
        reason = unnamed_sentiment_ids({label for _, label in pairs})
        if args.subtask == "sentiment" and reason:
            raise DataError(f"{bench.data.path(key)}: {reason}")
    config = TrainConfig(
        learning_rate=args.learning_rate,
        batch_size=args.batch_size,
        max_epochs=args.max_epochs,
        patience=args.patience,
        weight_decay=args.weight_decay,
        seed=ctx.seed,
        threads=args.threads,
    )
    folder = ctx.output_path("model")
    result = train_classifier(
        rows[train_key],
        rows[valid_key],
        LABELS[args.subtask],
        folder,
        config=config,
        encoder=args.encoder,
    )
    history = Table(
        columns=["epoch", "train_loss", "valid_loss", "valid_accuracy", "valid_macro_f1", "s"],
        rows=[
            [h.epoch, h.train_loss, h.valid_loss, h.valid_accuracy, h.valid_macro_f1, h.seconds]
            for h in result.history
        ],
        description="per-epoch training history (model kept from the best epoch)",
    )
    out = AnalysisResult(
        benchmark="beads",
        analysis="train",
        source=f"{train_key} -> {folder}",
        tables={"history": history},
        notes=[
            f"best epoch {result.best_epoch}; {result.stopped}; {result.seconds:.1f} s",
            f"load it with hf:{folder}",
        ],
        files=[str(folder), str(folder / "training.json")],
    )
    if args.evaluate:
        options.update(task="classify", mode="classifier", split=valid_key)
        evaluated = Beads.from_dict(options, ctx.store, ctx.seed)
        run, _ = ctx.run(evaluated, f"hf:{folder}", {"threads": args.threads})
        out.metrics = _metrics(run)
        out.tables.update(run.tables)
    return out


class RewriteArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    model: str = Field(description="model that rewrites (any backend spec)")
    judge: str = Field(description="judge model (any backend spec; required, no default)")
    judge_args: dict[str, Any] = Field({}, description="judge backend args")
    model_args: dict[str, Any] = Field({}, description="model backend args")
    classifier: str | None = Field(None, description="bias classifier for P(biased) (hf:PATH)")
    label_map: dict[str, str] = Field({}, description="classifier label -> BEADs label")
    embedder: str = Field("embedded-st", description="sentence embedder for meaning similarity")
    data: str = Field("demo", description="'demo' or a folder with the BEADs release")
    limit: int | None = Field(None, description="first N pairs only")


def _metrics(run: BenchmarkResult) -> list[MetricValue]:
    return list(run.metrics)


def _save(ctx: Context, name: str, run: BenchmarkResult) -> str:
    """The run's result (options, prompt ids, metrics) and its model's identity, as JSON."""
    path = ctx.output_path(f"{name}_results.json")
    model = ctx.models[-1].model_dump(mode="json") if ctx.models else None
    record = {"model": model, "result": run.model_dump(mode="json")}
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    return str(path)


def _by_kind(metrics: list[MetricValue]) -> Table:
    """Table 13's layout: each metric for the original, the reference and the model rewrite."""
    rows = []
    for metric in metrics:
        for breakdown in metric.breakdowns:
            if breakdown.by != "kind":
                continue
            for group in breakdown.groups:
                answered = group.outcome_rates.get("answered")
                rows.append(
                    [
                        metric.name,
                        group.group,
                        group.value,
                        group.ci_low,
                        group.ci_high,
                        group.n,
                        answered,
                    ]
                )
    return Table(
        columns=["metric", "text", "value", "ci_low", "ci_high", "n", "answered_rate"],
        rows=rows,
        description="per text kind (Table 13 rows); n counts answered judge questions",
    )


def rewrite(args: RewriteArgs, ctx: Context) -> AnalysisResult:
    return rewrite_judged(args, ctx)


#: per held-out pair id: {"rewritten": 1/0, judged question: 1 yes / 0 no / None, "similarity",
#: "p_biased"} of the model's rewrite (None: not rewritten, not answered, or a failed request)
ItemValues = dict[str, dict[str, float | None]]


def _model_values(records: list[SampleRecord], into: ItemValues) -> None:
    """Fold the per-text scores of the model's rewrites (sample id ``model:ID``) into `into`."""
    for record in records:
        kind, _, item = record.sample_id.partition(":")
        if kind == "model" and item in into:
            for name, value in record.scores.items():
                if not record.excluded and isinstance(value, int | float):
                    into[item][name] = float(value)


def rewrite_judged(
    args: RewriteArgs, ctx: Context, files: dict[str, str] | None = None
) -> AnalysisResult:
    """`rewrite`, with the pairs file overridable (``files``: config/split -> path)."""
    return rewrite_judged_items(args, ctx, files)[0]


def rewrite_judged_items(
    args: RewriteArgs, ctx: Context, files: dict[str, str] | None = None
) -> tuple[AnalysisResult, ItemValues]:
    """`rewrite_judged`, and the per-pair values of the model's rewrites (`ItemValues`)."""
    options: dict[str, Any] = {"task": "rewrite", "data": args.data, "files": files or {}}
    bench = Beads.from_dict(options, ctx.store, ctx.seed)
    _, records = ctx.run(bench, args.model, args.model_args, limit=args.limit)
    rows: list[dict[str, Any]] = []
    no_ops = 0
    for record in records:
        source = record.data["text"]
        rows.append({"id": record.sample_id, "kind": "original", "text": source, "source": source})
        rows.append(
            {
                "id": record.sample_id,
                "kind": "reference",
                "text": record.data["reference"],
                "source": source,
            }
        )
        text = record.scores.get("rewrite")
        if text:
            no_ops += text.strip() == source.strip()
            rows.append({"id": record.sample_id, "kind": "model", "text": text, "source": source})
    pairs = judging.write_pairs(ctx.output_path("rewrites.jsonl"), rows)
    common = {"pairs": str(pairs), "data": args.data, "label_map": args.label_map}
    metrics: list[MetricValue] = []
    items: ItemValues = {
        r.sample_id: {"rewritten": 1.0 if r.scores.get("rewrite") else 0.0} for r in records
    }
    judge_run, judged = ctx.run(
        Beads.from_dict({**common, "task": "judge", "max_tokens": 8}, ctx.store, ctx.seed),
        args.judge,
        args.judge_args,
    )
    _model_values(judged, items)
    metrics += _metrics(judge_run)
    written = [_save(ctx, "judge", judge_run)]
    if args.classifier:
        prob = Beads.from_dict({**common, "task": "probability"}, ctx.store, ctx.seed)
        prob_run, probs = ctx.run(prob, args.classifier)
        _model_values(probs, items)
        metrics += _metrics(prob_run)
        written.append(_save(ctx, "classifier", prob_run))
    sim = Beads.from_dict({**common, "task": "similarity"}, ctx.store, ctx.seed)
    sim_run, sims = ctx.run(sim, args.embedder)
    _model_values(sims, items)
    metrics += _metrics(sim_run)
    written.append(_save(ctx, "similarity", sim_run))
    answered = sum(1 for r in records if r.scores.get("rewrite"))
    tables = {"by_kind": _by_kind(metrics)}
    result = AnalysisResult(
        benchmark="beads",
        analysis="rewrite",
        source=f"{args.model} judged by {args.judge}",
        metrics=metrics,
        tables={
            **tables,
            "judge_prompts": Table(
                columns=["metric", "prompt"],
                rows=[[k, v] for k, v in judging.JUDGE_QUESTIONS.items()],
                description=f"questions asked to the judge {args.judge} (judge identity: "
                "see the judge run's model record)",
            ),
        },
        notes=[
            f"judge: {args.judge} {json.dumps(args.judge_args)}",
            f"{answered}/{len(records)} rewrites parsed; {no_ops} returned the input unchanged",
            "judged metrics are one yes/no question per text, not DeepEval's claim-level "
            "procedure (docs/benchmarks/beads.md)",
        ],
        files=[str(pairs), *written],
    )
    return result, items


class FetchArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    dest: str = Field(description="folder to download into (then use -O data=DEST)")
    configs: list[str] = Field(
        [], description="configs to fetch, e.g. 1-Text_Classification (default: all files)"
    )
    endpoint: str = Field("https://huggingface.co", description="hub endpoint")
    revision: str = Field("main", description="branch, tag or commit")


def fetch(args: FetchArgs, ctx: Context) -> AnalysisResult:
    """Download the gated release with the token in HF_TOKEN (never an argument)."""
    import os

    from biasaudit.benchmarks.beads.dataset_hub import TOKEN_ENV, fetch_beads

    result = fetch_beads(
        args.dest,
        os.environ.get(TOKEN_ENV),
        endpoint=args.endpoint,
        revision=args.revision,
        configs=args.configs or None,
    )
    return AnalysisResult(
        benchmark="beads",
        analysis="fetch",
        source=f"shainar/BEAD@{result.commit}",
        notes=[
            f"{len(result.downloaded)} downloaded, {len(result.cached)} already present and "
            f"verified; use -O data={args.dest}"
        ],
        files=[str(result.manifest)],
    )


FETCH = Analysis(
    "fetch", "download and verify the gated BEADs files with your HF_TOKEN", FetchArgs, fetch
)
TRAIN = Analysis("train", "fine-tune a BEADs classifier on CPU and evaluate it", TrainArgs, train)
REWRITE = Analysis(
    "rewrite",
    "benign rewrites judged by a model you name, plus reference-free measures",
    RewriteArgs,
    rewrite,
)
