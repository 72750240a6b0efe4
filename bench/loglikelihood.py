"""Log-likelihood throughput: biasaudit's `hf` backend vs lm-evaluation-harness's HFLM.

Workload: CrowS-Pairs as sentence log-likelihoods, each sentence conditioned on BOS (an
empty context): both sentences of every pair of crows_pairs_anonymized.csv, 3,016 requests
in all (`--pairs N` takes every k-th pair, a deterministic subset of N pairs).

One process, one model object: SmolLM2-135M-Instruct loaded once through
`hf:embedded`; HFLM is given that already-loaded `PreTrainedModel` and its tokenizer
(`HFLM(pretrained=model, tokenizer=tokenizer, batch_size=B)`), so both sides run the same
weights with the same torch threads. Each side runs at each batch size of `--batch-sizes`
and its best time counts. The script checks that biasaudit's values equal HFLM's within
1e-4, then prints the ratio HFLM / biasaudit (> 1: biasaudit faster). The `embedded`
llama.cpp backend is timed on the same requests for reference (different kernels, so its
values are not compared). For each side it also prints requests/s and the effective GFLOP/s:
the FLOPs the requests need without any sharing (2 x parameters x the tokens of each request
that a forward pass evaluates: BOS and the sentence less its last token, Kaplan et al. 2020's
2N per token, attention left out), divided by the wall time; sharing a prefix, or skipping
padding, shows as more effective GFLOP/s.

Usage: python bench/loglikelihood.py [--pairs 1508] [--batch-sizes 8 16 32] [--threads 1]
"""

from __future__ import annotations

import argparse
import csv
import os
import time
from functools import partial
from pathlib import Path
from typing import Any

from biasaudit.models import load_backend
from biasaudit.requests import LoglikelihoodRequest

CSV = Path("downstream/crows_pairs/crows_pairs_anonymized.csv")


def crows_sentences(data_dir: Path, pairs: int | None) -> list[str]:
    with (data_dir / CSV).open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    if pairs is not None and pairs < len(rows):
        step = len(rows) / pairs
        rows = [rows[int(i * step)] for i in range(pairs)]
    return [s for row in rows for s in (row["sent_more"], row["sent_less"])]


def throughput(label: str, seconds: float, n_requests: int, flops: float) -> str:
    """'label: T s, R requests/s, G effective GFLOP/s'."""
    return (
        f"{label}: {seconds:.1f} s, {n_requests / seconds:.1f} requests/s, "
        f"{flops / seconds / 1e9:.2f} effective GFLOP/s"
    )


def best_time(run: object, repeats: int = 1) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeats):
        started = time.perf_counter()
        result = run()  # type: ignore[operator]
        best = min(best, time.perf_counter() - started)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=None)
    parser.add_argument("--batch-sizes", type=int, nargs="+", default=[8, 16, 32])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--no-llamacpp", action="store_true")
    args = parser.parse_args()
    import torch
    from lm_eval.api.instance import Instance
    from lm_eval.models.huggingface import HFLM

    torch.set_num_threads(args.threads)
    data_dir = Path(os.environ.get("BIASAUDIT_DATA_DIR", "../shared/datasets"))
    sentences = crows_sentences(data_dir, args.pairs)
    print(f"nproc {os.cpu_count()}, load average {os.getloadavg()}, {len(sentences)} requests")
    requests = [LoglikelihoodRequest(context="", continuation=s) for s in sentences]
    instances = [
        Instance(request_type="loglikelihood", doc={}, arguments=("", s), idx=i)
        for i, s in enumerate(sentences)
    ]
    backend = load_backend("hf:embedded", {"threads": args.threads})
    hf: Any = backend
    n_params = hf.model.num_parameters()
    tokens = sum(len(hf.tokenizer(s, add_special_tokens=False)["input_ids"]) for s in sentences)
    flops = 2.0 * n_params * tokens  # BOS + sentence - last token = the sentence's token count
    print(f"{n_params / 1e6:.1f} M parameters, {tokens} evaluated tokens, {flops / 1e9:.0f} GFLOP")
    ours: dict[int, float] = {}
    theirs: dict[int, float] = {}
    ours_values: list[float] = []
    their_values: list[float] = []
    for size in args.batch_sizes:
        backend.args.batch_size = size  # type: ignore[attr-defined]
        elapsed, responses = best_time(partial(backend.loglikelihood, requests))
        ours[size] = elapsed
        ours_values = [r.logprob for r in responses]  # type: ignore[attr-defined]
        print(throughput(f"biasaudit hf batch {size}", elapsed, len(requests), flops), flush=True)
        hf.args.share_prefix = True  # the same backend with prefix sharing (opt-in)
        shared, shared_responses = best_time(partial(backend.loglikelihood, requests))
        hf.args.share_prefix = False
        shared_values = [r.logprob for r in shared_responses]  # type: ignore[attr-defined]
        gap = max(abs(a - b) for a, b in zip(ours_values, shared_values, strict=True))
        label = f"biasaudit hf batch {size}, share_prefix=true"
        print(throughput(label, shared, len(requests), flops), flush=True)
        print(f"  prefix sharing: {elapsed / shared:.2f}x the plain speed, max |diff| {gap:.1e}")
        lm = HFLM(
            pretrained=backend.model,  # type: ignore[attr-defined]
            tokenizer=backend.tokenizer,  # type: ignore[attr-defined]
            batch_size=size,
            device="cpu",
        )
        elapsed, results = best_time(partial(lm.loglikelihood, instances, disable_tqdm=True))
        theirs[size] = elapsed
        their_values = [value for value, _ in results]  # type: ignore[attr-defined]
        print(throughput(f"lm_eval HFLM batch {size}", elapsed, len(requests), flops), flush=True)
    diff = max(abs(a - b) for a, b in zip(ours_values, their_values, strict=True))
    best_ours, best_theirs = min(ours.values()), min(theirs.values())
    print(f"max |biasaudit - HFLM| = {diff:.2e} ({'OK' if diff <= 1e-4 else 'MISMATCH'})")
    print(
        f"best HFLM {best_theirs:.1f} s / best biasaudit hf {best_ours:.1f} s = "
        f"{best_theirs / best_ours:.2f}x"
    )
    if not args.no_llamacpp:
        llama = load_backend("embedded", {"n_threads": args.threads})
        elapsed, _ = best_time(partial(llama.loglikelihood, requests))
        print(throughput("biasaudit embedded (llama.cpp)", elapsed, len(requests), flops))
        print(f"embedded / HFLM: {best_theirs / elapsed:.2f}x")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
