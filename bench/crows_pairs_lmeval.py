"""CrowS-Pairs, causal path: biasaudit's metric score equals lm-evaluation-harness's
``crows_pairs_english`` on the same log-likelihoods.

1. lm-eval (0.4.x, the ``bench`` extra) builds its ``crows_pairs_english`` task from its own
   YAML and ``utils.py``, with the dataset pointed at the original CSV
   (``crows_pairs_anonymized.csv`` from the data mirror instead of the hub copy), and
   constructs its requests (``doc_to_text: ""``, ``target_delimiter: ""``, the two sentences
   as choices).
2. biasaudit runs ``crows_pairs`` with ``scorer=loglikelihood`` on the model (default
   ``hf:embedded``, SmolLM2-135M-Instruct through transformers).
3. Every lm-eval request must be one biasaudit sent (same context, same continuation); its
   log-likelihood is fed to lm-eval's ``process_results`` and aggregated with lm-eval's
   ``mean``. The two ``pct_stereotype`` numbers must be equal.

Usage: python bench/crows_pairs_lmeval.py [--model hf:embedded] [--limit N] [--threads 1]
       [--output RUN_DIR] [--cache FILE]

``--cache FILE`` reads (and fills) a biasaudit response cache, e.g. the one of an earlier
``biasaudit run crows_pairs --cache FILE`` on the same model, so the comparison does not score
the 3,016 sentences a second time; without it nothing is cached.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from biasaudit.api import evaluate
from biasaudit.data import DataStore
from biasaudit.datasets.crows_pairs import CROWS_PAIRS_KEY


def lmeval_task(csv_path: Path, limit: int | None) -> tuple[Any, list[Any]]:
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
    task = ConfigurableTask(config=config)
    task.build_all_requests(limit=limit, rank=0, world_size=1)
    return task, task.instances


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="hf:embedded")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--output", default=None, help="keep the biasaudit run in this folder")
    parser.add_argument("--cache", default=None, help="biasaudit response cache to reuse")
    args = parser.parse_args()

    csv_path = DataStore().path(CROWS_PAIRS_KEY)
    task, instances = lmeval_task(csv_path, args.limit)
    print(f"lm-eval {task.config.task}: {len(instances)} requests for {len(task.eval_docs)} docs")

    model_args: dict[str, Any] = {"batch_size": args.batch_size}
    model_args["threads" if args.model.startswith("hf") else "n_threads"] = args.threads
    with tempfile.TemporaryDirectory() as scratch:
        tmp = args.output or scratch
        start = time.perf_counter()
        result = evaluate(
            "crows_pairs",
            args.model,
            options={"crows_pairs": {"scorer": "loglikelihood"}},
            model_args=model_args,
            output_dir=tmp,
            limit=args.limit,
            cache_path=args.cache,
            use_cache=args.cache is not None,
            overwrite=True,
        )
        seconds = time.perf_counter() - start
        samples = [json.loads(line) for line in (Path(tmp) / "samples.jsonl").open()]
    ours: dict[tuple[str, str], tuple[float, bool]] = {}
    for sample in samples:
        for exchange in sample["exchanges"]:
            request, response = exchange["request"], exchange["response"]
            key = (request["context"], request["continuation"])
            ours[key] = (response["logprob"], bool(response["is_greedy"]))

    per_doc: dict[int, dict[int, tuple[float, bool]]] = {}
    missing = 0
    for instance in instances:
        context, continuation = instance.arguments
        if (context, continuation) not in ours:
            missing += 1
            continue
        per_doc.setdefault(instance.doc_id, {})[instance.idx] = ours[(context, continuation)]
    if missing:
        raise SystemExit(f"{missing} lm-eval requests were not sent by biasaudit (shape differs)")
    from lm_eval.api.metrics import mean

    docs = list(task.eval_docs)
    rows = [
        task.process_results(docs[doc_id], [choices[0], choices[1]])
        for doc_id, choices in sorted(per_doc.items())
    ]
    lm_pct = mean([row["pct_stereotype"] for row in rows])
    lm_diff = mean([row["likelihood_diff"] for row in rows])
    bench = result.benchmark("crows_pairs")
    ours_value = bench.metric("metric_score").value
    ours_diff = bench.metric("likelihood_diff").value
    print(f"model {args.model}, {len(rows)} pairs, biasaudit run {seconds:.0f} s")
    print(f"lm-eval   pct_stereotype {100 * lm_pct:.4f} %   likelihood_diff {lm_diff:.6f}")
    print(f"biasaudit metric_score   {ours_value:.4f} %   likelihood_diff {ours_diff:.6f}")
    # biasaudit reports percentages (as the CrowS-Pairs authors print them), lm-eval fractions
    if ours_value is None or abs(ours_value - 100 * lm_pct) > 1e-9:
        raise SystemExit("MISMATCH")
    print("equal")


if __name__ == "__main__":
    main()
