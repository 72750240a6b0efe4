"""`biasaudit beads train-spans`: BEADs' biased-span tagging with a fine-tuned token
classifier (§4.2.2, Table 10's BERT-family rows; Table A4 hyperparameters), beside the LLM
phrase lists of the ``spans`` task.

Gold tags are the phrase lists aligned to word tokens (`metrics.spans.align_phrases`, the
same tags the ``spans`` task scores against): O / B-BIAS / I-BIAS. Each word's tag is learned
on its first sub-token (the other sub-tokens are masked out of the loss, the usual
transformers recipe) and predicted from it. The sentences are split once, seeded
(`valid_size` held out); training stops when the validation loss has not fallen for
`patience` epochs and keeps the best epoch. The held-out sentences are scored with seqeval
(entity-level precision, recall and F1, CoNLL evaluation) and the toolkit's own span report.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from biasaudit.analysis import Analysis, AnalysisResult, Context
from biasaudit.benchmarks.beads.benchmark import Beads
from biasaudit.errors import DataError
from biasaudit.finetune.loop import adamw_with_warmup, fit
from biasaudit.metrics.spans import align_phrases, span_report
from biasaudit.results.schema import MetricValue, Table

TAGS = ["O", "B-BIAS", "I-BIAS"]
IGNORE = -100
SPLIT = "2-Token_Classification/bias_tokens"


def word_labels(word_ids: Sequence[int | None], tags: Sequence[str]) -> list[int]:
    """Sub-token labels: the word's tag on its first sub-token, IGNORE elsewhere."""
    labels, previous = [], None
    for word in word_ids:
        labels.append(IGNORE if word is None or word == previous else TAGS.index(tags[word]))
        previous = word
    return labels


def first_subtoken_tags(
    word_ids: Sequence[int | None], predicted: Sequence[int], n: int
) -> list[str]:
    """Per word, the tag predicted on its first sub-token (O for a word cut by truncation)."""
    tags = ["O"] * n
    seen: set[int] = set()
    for word, label in zip(word_ids, predicted, strict=True):
        if word is not None and word not in seen:
            seen.add(word)
            tags[word] = TAGS[label]
    return tags


class SpanArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    data: str = Field("demo", description="'demo' or a folder with the BEADs release")
    encoder: str | None = Field(None, description="encoder folder (default: all-MiniLM-L6-v2)")
    valid_size: float = Field(0.2, gt=0, lt=1, description="share of sentences held out")
    learning_rate: float = Field(2e-5, gt=0, description="AdamW learning rate (Table A4)")
    batch_size: int = Field(32, ge=1, description="batch size (Table A4)")
    max_epochs: int = Field(20, ge=1, description="epoch limit (Table A4: 20, early stopping)")
    patience: int = Field(3, ge=1, description="epochs without a lower validation loss")
    max_length: int = Field(128, ge=8, description="sub-tokens per sentence")
    threads: int = Field(1, ge=1, description="torch threads")


def _sentences(args: SpanArgs, ctx: Context) -> list[tuple[list[str], list[str]]]:
    bench = Beads.from_dict({"task": "spans", "data": args.data}, ctx.store, ctx.seed)
    assert isinstance(bench, Beads)
    out = []
    for row in bench.data.load(SPLIT).rows:
        aligned = align_phrases(row["text"], row["biased_words"])
        out.append(([t.text for t in aligned.tokens], aligned.tags))
    if len(out) < 2:
        raise DataError(f"BEADs {SPLIT}: {len(out)} sentences, need at least 2 to hold some out")
    return out


def _encode(
    tokenizer: Any, sentences: Sequence[tuple[list[str], list[str]]], max_length: int
) -> list[Any]:
    encoded = []
    for words, tags in sentences:
        enc = tokenizer(words, is_split_into_words=True, truncation=True, max_length=max_length)
        encoded.append((enc["input_ids"], word_labels(enc.word_ids(), tags), enc.word_ids()))
    return encoded


def _batch(items: Sequence[Any], pad_id: int) -> dict[str, Any]:
    import torch

    width = max(len(ids) for ids, _, _ in items)
    return {
        "input_ids": torch.tensor([ids + [pad_id] * (width - len(ids)) for ids, _, _ in items]),
        "attention_mask": torch.tensor(
            [[1] * len(i) + [0] * (width - len(i)) for i, _, _ in items]
        ),
        "labels": torch.tensor([lab + [IGNORE] * (width - len(lab)) for _, lab, _ in items]),
    }


def train_spans(args: SpanArgs, ctx: Context) -> AnalysisResult:
    """Fine-tune a token classifier on the biased-span tags; seqeval F1 on held-out sentences."""
    import torch
    from seqeval.metrics import f1_score, precision_score, recall_score
    from transformers import AutoModelForTokenClassification, AutoTokenizer
    from transformers.utils import logging as hf_logging

    from biasaudit.benchmarks.beads.train import minilm_encoder

    hf_logging.set_verbosity_error()  # no load warnings about the new classification head
    torch.set_num_threads(args.threads)
    sentences = _sentences(args, ctx)
    order = list(range(len(sentences)))
    random.Random(f"beads-spans:{ctx.seed}").shuffle(order)
    n_valid = max(1, round(args.valid_size * len(order)))
    valid_idx, train_idx = sorted(order[:n_valid]), sorted(order[n_valid:])
    source = str(args.encoder or minilm_encoder())
    torch.manual_seed(ctx.seed)
    tokenizer = AutoTokenizer.from_pretrained(source, local_files_only=True)
    model = AutoModelForTokenClassification.from_pretrained(
        source,
        num_labels=3,
        id2label=dict(enumerate(TAGS)),
        label2id={t: i for i, t in enumerate(TAGS)},
        local_files_only=True,
    )
    train = _encode(tokenizer, [sentences[i] for i in train_idx], args.max_length)
    valid = _encode(tokenizer, [sentences[i] for i in valid_idx], args.max_length)
    # AdamW's default weight decay (0.01) and no warm-up, as before the one loop
    optimizer, scheduler = adamw_with_warmup(model.parameters(), args.learning_rate, 0.01, 0)
    rng = random.Random(f"beads-spans-order:{ctx.seed}")
    best_state: dict[str, Any] | None = None

    def train_batches(epoch: int) -> Iterator[dict[str, Any]]:
        batch_order = list(range(len(train)))
        rng.shuffle(batch_order)
        for start in range(0, len(batch_order), args.batch_size):
            chunk = [train[i] for i in batch_order[start : start + args.batch_size]]
            yield _batch(chunk, tokenizer.pad_token_id)

    def valid_loss(epoch: int) -> float:
        with torch.no_grad():
            return float(model(**_batch(valid, tokenizer.pad_token_id)).loss)

    def keep(epoch: int) -> None:
        nonlocal best_state
        best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}

    fitted = fit(
        model,
        max_epochs=args.max_epochs,
        patience=args.patience,
        train_batches=train_batches,
        valid_loss=valid_loss,
        optimizer=optimizer,
        scheduler=scheduler,
        on_best=keep,
    )
    history = [{"epoch": e.epoch, "valid_loss": e.valid_loss} for e in fitted.history]
    assert best_state is not None
    model.load_state_dict(best_state)
    model.eval()
    gold, predicted, rows = [], [], []
    with torch.no_grad():
        for (ids, _, word_ids), i in zip(valid, valid_idx, strict=True):
            logits = model(input_ids=torch.tensor([ids])).logits[0]
            words, tags = sentences[i]
            pred = first_subtoken_tags(word_ids, logits.argmax(-1).tolist(), len(words))
            gold.append(tags)
            predicted.append(pred)
            rows.append({"sentence": i, "words": words, "gold": tags, "predicted": pred})
    folder = ctx.output_path("span_model")
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    predictions = ctx.output_path("span_predictions.jsonl")
    predictions.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    best_epoch = fitted.best_epoch
    training = {
        "args": args.model_dump(),
        "seed": ctx.seed,
        "train_sentences": train_idx,
        "valid_sentences": valid_idx,
        "history": history,
        "best_epoch": best_epoch,
    }
    ctx.output_path("span_training.json").write_text(json.dumps(training, indent=1) + "\n")
    report = span_report(gold, predicted)
    n = len(gold)
    seq = {
        "seqeval_precision": precision_score(gold, predicted, zero_division=0),
        "seqeval_recall": recall_score(gold, predicted, zero_division=0),
        "seqeval_f1": f1_score(gold, predicted, zero_division=0),
    }
    metrics = [
        MetricValue(
            name=name,
            value=float(value),
            n=n,
            statistic="seqeval (CoNLL, entity level)",
            higher_is_better=True,
            reference="BEADs Table 10; seqeval",
            description=f"{name} on the held-out sentences",
        )
        for name, value in seq.items()
    ]
    metrics.append(
        MetricValue(
            name="token_accuracy",
            value=report.tokens.accuracy,
            n=n,
            statistic="B/I merged to Bias (Table 10)",
            higher_is_better=True,
        )
    )
    return AnalysisResult(
        benchmark="beads",
        analysis="train-spans",
        source=f"{source} on {args.data}",
        metrics=metrics,
        tables={
            "history": Table(
                description="validation loss per epoch",
                columns=["epoch", "valid_loss"],
                rows=[[h["epoch"], h["valid_loss"]] for h in history],
            )
        },
        notes=[
            f"{len(train_idx)} sentences trained on, {n} held out (seed {ctx.seed}); best "
            f"epoch {best_epoch} of {len(history)}; the model is {folder}"
        ],
        files=[str(folder), str(predictions), str(ctx.output_path("span_training.json"))],
    )


TRAIN_SPANS = Analysis(
    "train-spans", "fine-tune a biased-span token classifier, seqeval F1", SpanArgs, train_spans
)
