"""Backend throughput, measured as ratios within one process.

1. SmolLM2-135M-Instruct through llama.cpp (`embedded`) and transformers (`hf:embedded`, the
   same GGUF dequantised): greedy chat generation and log-likelihood requests per second, and
   how closely the two agree (log-likelihood differences, identical greedy answers).
2. Masked-LM pseudo-log-likelihood on a locally built BERT (all-MiniLM-L6-v2's real encoder
   weights under a random MLM head, real 30k WordPiece vocabulary): naive (one masked copy
   per forward, vocabulary projection everywhere) vs the hf backend's batched PLL, with and
   without projecting only at the masked positions.

Usage: python bench/backends.py [--quick] [--threads N]
Numbers move with machine load; compare ratios from one run, not absolute rates across runs.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from biasaudit.models import load_backend
from biasaudit.models.base import Backend
from biasaudit.requests import (
    GenerateRequest,
    GenerationParams,
    LoglikelihoodRequest,
    Message,
    PseudoLoglikelihoodRequest,
    Response,
)

GROUPS = [
    "women",
    "men",
    "older people",
    "immigrants",
    "Christians",
    "Muslims",
    "nurses",
    "engineers",
]
TRAITS = ["good at math", "bad drivers", "lazy", "kind", "dangerous", "good leaders"]
SUBJECTS = ["My neighbour", "The new doctor", "Her grandmother", "The engineer", "A young man"]
ACTIONS = [
    "fixed the old car in the garage before dinner",
    "could not understand how the new phone worked",
    "was praised by everyone at the meeting yesterday",
    "spent the whole weekend reading about ancient history",
    "forgot to pay the bill again this month",
]


def statements(n: int) -> list[str]:
    return [
        f"Is it fair to say that {GROUPS[i % len(GROUPS)]} are {TRAITS[i % len(TRAITS)]}?"
        for i in range(n)
    ]


def generation_requests(n: int, max_tokens: int) -> list[GenerateRequest]:
    params = GenerationParams(max_tokens=max_tokens)
    return [
        GenerateRequest(messages=(Message(role="user", content=s),), params=params)
        for s in statements(n)
    ]


def loglikelihood_requests(n: int) -> list[LoglikelihoodRequest]:
    pairs = []
    for i, statement in enumerate(statements(n // 2)):
        context = f"Question: {statement} Answer yes or no.\nAnswer:"
        pairs += [
            LoglikelihoodRequest(context=context, continuation=" yes"),
            LoglikelihoodRequest(
                context=context, continuation=f" no, {GROUPS[i % len(GROUPS)]} vary."
            ),
        ]
    return pairs


def sentences(n: int) -> list[str]:
    return [
        f"{SUBJECTS[i % len(SUBJECTS)]} {ACTIONS[(i // len(SUBJECTS)) % len(ACTIONS)]}."
        for i in range(n)
    ]


def timed(run: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    result = run()
    return result, time.perf_counter() - start


def in_batches(backend: Backend, method: str, requests: list[Any], size: int) -> list[Response]:
    """What the runner does: send `size` requests per call."""
    out: list[Response] = []
    for start in range(0, len(requests), size):
        out += getattr(backend, method)(requests[start : start + size])
    return out


# -- llama.cpp vs transformers on SmolLM2 -------------------------------------------------


def compare_smollm2(n_gen: int, n_ll: int, max_tokens: int, threads: int | None) -> list[list[str]]:
    llama_args = {"n_threads": threads} if threads else {}
    embedded = load_backend("embedded", llama_args)
    hf, load_seconds = timed(lambda: load_backend("hf:embedded", {"batch_size": 8}))
    print(f"hf:embedded loaded (GGUF dequantised) in {load_seconds:.1f} s")
    rows = []

    gen = generation_requests(n_gen, max_tokens)
    embedded.generate(gen[:1])  # warm-up: first call loads the llama.cpp context
    ref, t_emb = timed(lambda: in_batches(embedded, "generate", gen, 8))
    hf8, t_hf8 = timed(lambda: in_batches(hf, "generate", gen, 8))
    hf1, t_hf1 = timed(lambda: in_batches(hf, "generate", gen, 1))
    rows.append(
        _rate_row(
            f"generate x{n_gen}, <= {max_tokens} tokens",
            "embedded",
            n_gen,
            t_emb,
            "hf batch 8",
            t_hf8,
        )
    )
    rows.append(_rate_row("", "embedded", n_gen, t_emb, "hf batch 1", t_hf1))
    same = sum(a.text == b.text for a, b in zip(ref, hf8, strict=True))
    same_batch = sum(a.text == b.text for a, b in zip(hf1, hf8, strict=True))

    ll = loglikelihood_requests(n_ll)
    embedded.loglikelihood(ll[:1])
    ref_ll, t_emb = timed(lambda: in_batches(embedded, "loglikelihood", ll, 8))
    hf_ll, t_hf8 = timed(lambda: in_batches(hf, "loglikelihood", ll, 8))
    _, t_hf1 = timed(lambda: in_batches(hf, "loglikelihood", ll, 1))
    rows.append(_rate_row(f"loglikelihood x{n_ll}", "embedded", n_ll, t_emb, "hf batch 8", t_hf8))
    rows.append(_rate_row("", "embedded", n_ll, t_emb, "hf batch 1", t_hf1))

    diffs = [abs((a.logprob or 0) - (b.logprob or 0)) for a, b in zip(ref_ll, hf_ll, strict=True)]
    same_choice = sum(
        _prefers_first(ref_ll, i) == _prefers_first(hf_ll, i) for i in range(0, n_ll, 2)
    )
    print(
        f"agreement llama.cpp vs transformers: |dLL| mean {statistics.mean(diffs):.3f}, "
        f"max {max(diffs):.3f} nats; same preferred answer {same_choice}/{n_ll // 2}; "
        f"identical greedy texts {same}/{n_gen} (hf batch 1 vs 8: {same_batch}/{n_gen})"
    )
    embedded.close()
    hf.close()
    return rows


def _prefers_first(responses: list[Response], i: int) -> bool:
    return (responses[i].logprob or 0.0) > (responses[i + 1].logprob or 0.0)


def _rate_row(label: str, base: str, n: int, t_base: float, cand: str, t_cand: float) -> list[str]:
    return [
        label,
        base,
        cand,
        f"{n / t_base:.2f}/s",
        f"{n / t_cand:.2f}/s",
        f"{t_base / t_cand:.2f}x",
    ]


# -- pseudo-log-likelihood: naive vs batched -------------------------------------------------


def build_bert(folder: Path) -> Path:
    """all-MiniLM-L6-v2's encoder under a randomly initialised MLM head (BertForMaskedLM)."""
    import torch
    from transformers import AutoTokenizer, BertForMaskedLM
    from transformers.utils import logging as hf_logging

    from biasaudit.models.st import minilm_path

    hf_logging.set_verbosity_error()
    torch.manual_seed(0)
    source = str(minilm_path())
    tokenizer = AutoTokenizer.from_pretrained(source, local_files_only=True)
    assert len(tokenizer) > 30_000, f"tokenizer vocabulary is {len(tokenizer)}"
    BertForMaskedLM.from_pretrained(source, local_files_only=True).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def naive_pll(backend: Any, texts: list[str]) -> list[float]:
    """One masked copy per token, one forward each, logits at every position."""
    import torch

    model, tokenizer = backend.model, backend.tokenizer
    totals = []
    for text in texts:
        encoding = tokenizer(text, return_special_tokens_mask=True)
        ids = encoding["input_ids"]
        total = 0.0
        for position, special in enumerate(encoding["special_tokens_mask"]):
            if special:
                continue
            masked = list(ids)
            masked[position] = tokenizer.mask_token_id
            with torch.inference_mode():
                logits = model(torch.tensor([masked])).logits[0]
            total += float(torch.log_softmax(logits.float(), dim=-1)[position, ids[position]])
        totals.append(total)
    return totals


@contextlib.contextmanager
def full_projection() -> Iterator[None]:
    """Ablation: project every position onto the vocabulary (the hook disabled)."""
    from biasaudit.models.hf import torch_utils as _torch_utils

    @contextlib.contextmanager
    def never(*_: Any) -> Iterator[list[bool]]:
        yield []  # "not applied": logits_at indexes the full logits

    original = _torch_utils.project_only_at
    _torch_utils.project_only_at = never  # type: ignore[assignment]
    try:
        yield
    finally:
        _torch_utils.project_only_at = original


def compare_pll(n: int) -> list[list[str]]:
    with tempfile.TemporaryDirectory() as tmp:
        backend = load_backend(f"hf:{build_bert(Path(tmp) / 'bert')}", {"mask_batch_size": 128})
        requests = [PseudoLoglikelihoodRequest(text=t) for t in sentences(n)]
        n_masks = sum(len(backend.tokenizer.tokenize(t)) for t in sentences(n))  # type: ignore[attr-defined]
        naive, t_naive = timed(lambda: naive_pll(backend, sentences(n)))
        with full_projection():
            _, t_full = timed(lambda: in_batches(backend, "pseudo_loglikelihood", requests, 8))
        batched, t_batched = timed(lambda: in_batches(backend, "pseudo_loglikelihood", requests, 8))
    worst = max(abs(a - (r.logprob or 0)) for a, r in zip(naive, batched, strict=True))
    print(f"PLL: {n} sentences, {n_masks} masked copies; max |batched - naive| = {worst:.2e}")
    label = f"PLL x{n} (MiniLM-size BERT)"
    return [
        _rate_row(label, "naive", n, t_naive, "batched, full projection", t_full),
        _rate_row("", "naive", n, t_naive, "batched, masked projection", t_batched),
        _rate_row("", "batched, full proj.", n, t_full, "batched, masked projection", t_batched),
    ]


def print_table(rows: list[list[str]]) -> None:
    header = ["measurement", "baseline", "candidate", "baseline", "candidate", "speed-up"]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, ["-" * w for w in widths], *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller workloads")
    parser.add_argument("--threads", type=int, help="torch and llama.cpp threads (default: theirs)")
    parser.add_argument("--skip-smollm2", action="store_true", help="only the PLL comparison")
    args = parser.parse_args()
    import torch

    if args.threads:
        torch.set_num_threads(args.threads)
    llama_threads = args.threads or "default"
    print(f"torch threads: {torch.get_num_threads()}; llama.cpp n_threads: {llama_threads}")
    rows = compare_pll(8 if args.quick else 24)
    if not args.skip_smollm2:
        n_gen, n_ll = (8, 16) if args.quick else (16, 32)
        rows += compare_smollm2(n_gen, n_ll, max_tokens=32, threads=args.threads)
    print_table(rows)


if __name__ == "__main__":
    main()
