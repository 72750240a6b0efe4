"""``biasaudit stop ...``: human-study scoring, fine-tuning export, subsets, labelled export."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from biasaudit.errors import RunError


def _progressions(args: argparse.Namespace) -> list[Any]:
    from biasaudit.benchmarks.stop.data import FULL_KEY, LABELLED_KEY, load_progressions
    from biasaudit.data import DataStore

    key = LABELLED_KEY if getattr(args, "released_model", None) else FULL_KEY
    return load_progressions(DataStore(args.data_dir).path(key))


def _run_records(run_dir: str) -> list[Any]:
    from biasaudit.results.io import iter_samples

    records = [r for r in iter_samples(run_dir) if r.benchmark == "stop"]
    if not records:
        raise RunError(f"{run_dir}: no STOP samples in samples.jsonl")
    return records


def run_sensitivity(run_dir: str) -> dict[int, float]:
    """Progression index -> sensitivity of every scored sample of a STOP run."""
    return {
        int(r.data["index"]): float(r.scores["sensitivity"])
        for r in _run_records(run_dir)
        if not r.excluded
    }


def cmd_human(args: argparse.Namespace) -> int:
    from biasaudit.benchmarks.stop.human import (
        hedges_by_demographic,
        load_annotations,
        score_humans,
    )
    from biasaudit.textfmt import format_table

    progressions = _progressions(args)
    study = score_humans(
        load_annotations(args.annotations, n_items=len(progressions)),
        progressions,
        impute=args.impute,
        tie_break=args.tie_break,
        aggregation=args.aggregation,
        kappa_on=args.kappa_on,
    )
    models: dict[str, dict[int, float]] = {run: run_sensitivity(run) for run in args.run}
    for model in args.released_model:
        scores = {p.index: p.model_scores[model] for p in progressions if model in p.model_scores}
        if not scores:
            raise RunError(f"no released scores for model '{model}' in the labelled file")
        models[model] = scores
    hedges = {name: hedges_by_demographic(scores, study) for name, scores in models.items()}
    summary = {
        "n_items": len(study.items),
        "excluded": {str(k): v for k, v in study.excluded.items()},
        "incomplete_annotations": study.incomplete_annotations,
        "fleiss_kappa": study.kappa,
        "kappa_label": study.kappa_label,
        "kappa_sentences": study.n_kappa_items,
        "success": study.success,
        "hedges_g": {
            name: {d: {"g": g, "n": n} for d, (g, n) in per.items()} for name, per in hedges.items()
        },
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    print(
        f"human study: {len(study.items)} progressions scored, {len(study.excluded)} excluded, "
        f"{study.incomplete_annotations} incomplete annotations left out"
    )
    print(f"Fleiss' kappa {study.kappa} ({study.kappa_label}) over {study.n_kappa_items} sentences")
    print(format_table(["metric", "value"], list(study.success.items())))
    for name, per in hedges.items():
        print(f"\nHedges' g, {name} vs humans (positive: model more sensitive)")
        print(format_table(["demographic", "g", "n"], [[d, g, n] for d, (g, n) in per.items()]))
    return 0


def cmd_export_finetune(args: argparse.Namespace) -> int:
    from biasaudit.benchmarks.stop.data import filter_progressions
    from biasaudit.benchmarks.stop.finetune import human_examples, ideal_examples, write_jsonl
    from biasaudit.benchmarks.stop.human import load_annotations, score_humans

    progressions = filter_progressions(
        _progressions(args), severity=args.severity, demographic=args.demographic
    )
    if args.source == "human":
        if not args.annotations:
            raise RunError("--source human needs --annotations FILE")
        study = score_humans(load_annotations(args.annotations), progressions)
        examples = human_examples(study, progressions)
        what = f"human majority answers of {len(study.items)} annotated progressions"
    else:
        examples = ideal_examples(progressions)
        what = f"ideal answers of all {len(progressions)} selected progressions (no cf turn)"
    count = write_jsonl(args.output, examples)
    print(f"wrote {count} conversations to {args.output} ({what})")
    return 0


def cmd_subset(args: argparse.Namespace) -> int:
    from biasaudit.benchmarks.stop.data import stratified_sample

    chosen = stratified_sample(_progressions(args), args.n, args.seed)
    rows = [
        {
            "item": p.index,
            "severity": p.severity,
            "demographic": p.demographic,
            "sub_demographic": p.sub_demographic,
        }
        for p in chosen
    ]
    text = json.dumps(rows, indent=1)
    if args.output:
        Path(args.output).write_text(text + "\n", encoding="utf-8")
        print(f"wrote {len(rows)} items to {args.output}")
    else:
        print(text)
    return 0


def cmd_label(args: argparse.Namespace) -> int:
    """A copy of the progressions with ``<model>_score`` / ``<model>_cf`` like the release."""
    from biasaudit.results.io import read_results

    model_id = args.model_id or read_results(args.run_dir).model.spec
    entries = []
    for record in _run_records(args.run_dir):
        entry = {
            k: record.data[k]
            for k in ("prompts", "cfprompt", "severity", "demographic", "sub_demographic")
        }
        if not record.excluded:
            entry[f"{model_id}_score"] = record.scores["sensitivity"]
            cf = [e.response.text for e in record.exchanges[len(record.scores["answers"]) :]]
            entry[f"{model_id}_cf"] = (cf[0] or "").strip() if cf else ""
        entries.append(entry)
    Path(args.output).write_text(
        json.dumps(entries, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    print(f"wrote {len(entries)} entries to {args.output}")
    return 0


def register(subparsers: Any, data_parent: argparse.ArgumentParser) -> None:
    stop = subparsers.add_parser("stop", help="STOP extras: human study, fine-tune export, ...")
    sub = stop.add_subparsers(dest="stop_command", required=True, metavar="COMMAND")

    human = sub.add_parser(
        "human", parents=[data_parent], help="score a human study (kappa, human P, Hedges' g)"
    )
    human.add_argument("annotations", help="CSV/JSONL: annotator,item,step,answer")
    human.add_argument(
        "--run",
        action="append",
        default=[],
        metavar="RUN_DIR",
        help="compare a STOP run with the humans (repeatable)",
    )
    human.add_argument(
        "--released-model",
        action="append",
        default=[],
        metavar="MODEL_ID",
        help="compare a model of the released labelled file (repeatable)",
    )
    human.add_argument("--impute", choices=["stop_on_first_no", "none"], default="stop_on_first_no")
    human.add_argument("--tie-break", choices=["exclude", "no", "yes"], default="exclude")
    human.add_argument(
        "--aggregation",
        choices=["sentence_majority", "sensitivity_mode"],
        default="sentence_majority",
    )
    human.add_argument("--kappa-on", choices=["observed", "imputed"], default="observed")
    human.add_argument("--json", action="store_true")
    human.set_defaults(func=cmd_human)

    export = sub.add_parser(
        "export-finetune", parents=[data_parent], help="alignment fine-tuning chat JSONL"
    )
    export.add_argument("--source", choices=["human", "ideal"], required=True)
    export.add_argument("--annotations", help="annotation file (for --source human)")
    export.add_argument("--severity", action="append", help="only this severity (repeatable)")
    export.add_argument("--demographic", action="append", help="only this demographic (repeatable)")
    export.add_argument("--output", "-o", required=True)
    export.set_defaults(func=cmd_export_finetune)

    subset = sub.add_parser(
        "subset", parents=[data_parent], help="stratified subset (e.g. 100 items for annotators)"
    )
    subset.add_argument("--n", type=int, default=100)
    subset.add_argument("--seed", type=int, default=0)
    subset.add_argument("--output", "-o")
    subset.set_defaults(func=cmd_subset)

    label = sub.add_parser("label", help="write a run as a labelled STOP file (<model>_score/_cf)")
    label.add_argument("run_dir")
    label.add_argument("--model-id", help="key prefix (default: the run's model spec)")
    label.add_argument("--output", "-o", required=True)
    label.set_defaults(func=cmd_label)
