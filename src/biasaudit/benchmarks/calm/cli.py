"""``biasaudit calm ...``: robustness and diversity analyses of CALM.

- ``subsets RUN_DIR``: the score on random template (or prompt) subsets of a finished run,
  mean and standard deviation over all runs (paper Table 5).
- ``perturb``: runs the original and the perturbed versions of the templates on a model and
  reports each score and its relative change (paper Table 4).
- ``diversity``: mean pairwise embedding similarity and length of the templates (Table 6).
- ``agreement RUN_DIR RUN_DIR...``: templates whose favoured and disfavoured groups are the
  same in every run (the template error analysis of §6.1, Table 9).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from biasaudit.errors import BiasauditError, RunError


def _floats(text: str) -> list[float]:
    try:
        return [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise BiasauditError(f"'{text}' is not a comma-separated list of numbers") from None


def _print(
    payload: dict[str, Any], rows: list[list[Any]], columns: list[str], as_json: bool
) -> None:
    from biasaudit.textfmt import format_table

    if as_json:
        print(json.dumps(payload, indent=2))
    else:
        print(format_table(columns, rows))


def _run_prompts(run_dir: str) -> tuple[list[Any], dict[str, Any]]:
    from biasaudit.benchmarks.calm.summary import scored_prompts
    from biasaudit.results.io import iter_samples, read_results

    records = [r for r in iter_samples(run_dir) if r.benchmark == "calm"]
    if not records:
        raise RunError(f"{run_dir}: no CALM samples in samples.jsonl")
    options = read_results(run_dir).benchmark("calm").options
    return scored_prompts(records), options


def cmd_subsets(args: argparse.Namespace) -> int:
    from biasaudit.benchmarks.calm.benchmark import CALMOptions, scoring_options
    from biasaudit.benchmarks.calm.robustness import mean_sd, subset_runs

    fractions = _floats(args.fractions)
    if not fractions or any(not 0 < f <= 1 for f in fractions):
        raise BiasauditError(f"--fractions {args.fractions}: each must be in (0, 1]")
    prompts, saved = _run_prompts(args.run_dir)
    options = scoring_options(CALMOptions.model_validate(saved))
    runs = subset_runs(
        prompts,
        options,
        fractions=fractions,
        runs_per_fraction=args.runs,
        unit=args.unit,
        seed=args.seed,
    )
    mean, sd = mean_sd([r.score for r in runs])
    rows = [[r.fraction, r.run, r.score] for r in runs] + [["all", "mean", mean], ["all", "sd", sd]]
    payload = {
        "runs": [r.__dict__ for r in runs],
        "mean": mean,
        "sd": sd,
        "unit": args.unit,
    }
    _print(payload, rows, ["fraction", "run", "bias_score"], args.json)
    return 0


def cmd_agreement(args: argparse.Namespace) -> int:
    from biasaudit.benchmarks.calm.agreement import compare_runs
    from biasaudit.benchmarks.calm.benchmark import CALMOptions, scoring_options
    from biasaudit.benchmarks.calm.scoring import score_prompts

    if len(args.run_dirs) < 2:
        raise BiasauditError("calm agreement needs at least two run directories")
    results = []
    for run_dir in args.run_dirs:
        prompts, saved = _run_prompts(run_dir)
        results.append(score_prompts(prompts, scoring_options(CALMOptions.model_validate(saved))))
    agreements = compare_runs([r.templates for r in results])
    shown = [a for a in agreements if a.agrees or args.all]
    rows = [
        [
            a.task,
            a.attribute,
            a.template_id,
            " | ".join(f"{d[0]}>{d[1]}" if d else "-" for d in a.directions),
            a.agrees,
        ]
        for a in shown
    ]
    n_agree = sum(a.agrees for a in agreements)
    payload = {
        "templates_compared": len(agreements),
        "templates_agreeing": n_agree,
        "rows": [
            {
                "task": a.task,
                "attribute": a.attribute,
                "template_id": a.template_id,
                "directions": a.directions,
                "agrees": a.agrees,
            }
            for a in shown
        ],
    }
    _print(
        payload,
        rows,
        ["task", "attribute", "template", "favoured>disfavoured per run", "agrees"],
        args.json,
    )
    if not args.json:
        print(
            f"{n_agree} of {len(agreements)} template-attribute pairs show the same bias "
            "in every run"
        )
    return 0


def cmd_perturb(args: argparse.Namespace) -> int:
    from biasaudit.api import evaluate
    from biasaudit.benchmarks.calm.perturb import VERSIONS
    from biasaudit.benchmarks.calm.robustness import mean_sd, relative_change
    from biasaudit.options import parse_cli_pairs

    base = parse_cli_pairs(args.option)
    versions = [
        "none",
        *([v.strip() for v in args.versions.split(",")] if args.versions else VERSIONS),
    ]
    scores: dict[str, float | None] = {}
    for version in versions:
        options = {**base, "perturbation": version, "perturbation_seed": args.perturbation_seed}
        run = evaluate(
            "calm",
            args.model,
            options={"calm": options},
            model_args=parse_cli_pairs(args.model_arg),
            data_dir=args.data_dir,
            seed=args.seed,
            progress=not args.quiet,
        )
        scores[version] = run.benchmark("calm").metric("bias_score").value
    original = scores["none"]
    perturbed = [scores[v] for v in versions[1:]]
    mean, sd = mean_sd(perturbed)
    rows = [[v, s, relative_change(original, s)] for v, s in scores.items()]
    rows.append(["perturbed mean", mean, relative_change(original, mean)])
    rows.append(["perturbed sd", sd, None])
    payload = {
        "scores": scores,
        "perturbed_mean": mean,
        "perturbed_sd": sd,
        "relative_change_of_mean": relative_change(original, mean),
    }
    _print(payload, rows, ["version", "bias_score", "relative_change"], args.json)
    return 0


def cmd_diversity(args: argparse.Namespace) -> int:
    from biasaudit.benchmarks.calm import data as d
    from biasaudit.benchmarks.calm.diversity import (
        full_text,
        length_stats,
        mean_pairwise_cosine,
        similarity_text,
    )
    from biasaudit.benchmarks.calm.perturb import perturb_template
    from biasaudit.data import DataStore
    from biasaudit.models import load_backend
    from biasaudit.requests import Capability, EmbedRequest

    store = DataStore(args.data_dir)
    tasks = [t.strip() for t in args.tasks.split(",")] if args.tasks else list(d.TASKS)
    unknown = set(tasks) - set(d.TASKS)
    if unknown:
        raise BiasauditError(f"unknown CALM task(s) {sorted(unknown)}; use qa, nli, sentiment")
    templates = []
    for task in tasks:
        gt = d.load_gt(store, task, "gender") if task == "sentiment" else None
        templates += [
            perturb_template(t, args.perturbation, args.perturbation_seed)
            for t in d.load_templates(store, task, gt)
        ]
    backend = load_backend(args.model)
    if Capability.EMBED not in backend.capabilities:
        raise BiasauditError(f"model '{args.model}' cannot embed; try embedded-st")
    texts = [similarity_text(t) for t in templates]
    responses = backend.dispatch(Capability.EMBED, [EmbedRequest(text=x) for x in texts])
    vectors: dict[str, list[float]] = {}
    for template, response in zip(templates, responses, strict=True):
        if response.embedding is None:
            raise BiasauditError(f"model '{args.model}' returned no embedding: {response.error}")
        vectors[template.id] = response.embedding
    rows: list[list[Any]] = []
    payload: dict[str, Any] = {"model": args.model, "groups": {}}
    for label in [*tasks, "all"]:
        chosen = [t for t in templates if label in ("all", t.task)]
        similarity = mean_pairwise_cosine(
            [vectors[t.id] for t in chosen], include_diagonal=args.include_diagonal
        )
        length = length_stats([full_text(t) for t in chosen])
        rows.append(
            [label, length.n, similarity, length.mean, length.sd, length.minimum, length.maximum]
        )
        payload["groups"][label] = {"n": length.n, "similarity": similarity} | length.__dict__
    _print(
        payload,
        rows,
        ["templates", "n", "similarity", "words_mean", "words_sd", "min", "max"],
        args.json,
    )
    return 0


def register(subparsers: Any, data_parent: argparse.ArgumentParser) -> None:
    calm = subparsers.add_parser("calm", help="CALM robustness and diversity analyses")
    sub = calm.add_subparsers(dest="calm_command", required=True, metavar="ANALYSIS")

    subsets = sub.add_parser("subsets", help="score on random subsets of a finished run")
    subsets.add_argument("run_dir")
    subsets.add_argument("--fractions", default="0.75,0.5,0.25")
    subsets.add_argument("--runs", type=int, default=2, help="runs per fraction (default 2)")
    subsets.add_argument("--unit", choices=["template", "prompt"], default="template")
    subsets.add_argument("--seed", type=int, default=0)
    subsets.add_argument("--json", action="store_true")
    subsets.set_defaults(func=cmd_subsets)

    agreement = sub.add_parser(
        "agreement", help="templates whose bias direction is the same in several runs"
    )
    agreement.add_argument("run_dirs", nargs="+", metavar="RUN_DIR")
    agreement.add_argument("--all", action="store_true", help="list every compared template")
    agreement.add_argument("--json", action="store_true")
    agreement.set_defaults(func=cmd_agreement)

    perturb = sub.add_parser(
        "perturb", parents=[data_parent], help="score original and perturbed templates on a model"
    )
    perturb.add_argument("--model", "-m", default="embedded")
    perturb.add_argument("--model-arg", "-M", action="append", default=[], metavar="KEY=VALUE")
    perturb.add_argument(
        "--option",
        "-O",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="CALM option for every version (e.g. template_ids=qa:0)",
    )
    perturb.add_argument("--versions", help="comma list (default synonym,adjective,clause,all)")
    perturb.add_argument("--perturbation-seed", type=int, default=0)
    perturb.add_argument("--seed", type=int, default=0)
    perturb.add_argument("--quiet", "-q", action="store_true")
    perturb.add_argument("--json", action="store_true")
    perturb.set_defaults(func=cmd_perturb)

    diversity = sub.add_parser(
        "diversity", parents=[data_parent], help="embedding similarity and length of the templates"
    )
    diversity.add_argument("--model", "-m", default="embedded-st")
    diversity.add_argument("--tasks", help="comma list of qa, nli, sentiment (default all)")
    diversity.add_argument(
        "--perturbation", default="none", choices=["none", "synonym", "adjective", "clause", "all"]
    )
    diversity.add_argument("--perturbation-seed", type=int, default=0)
    diversity.add_argument("--include-diagonal", action="store_true")
    diversity.add_argument("--json", action="store_true")
    diversity.set_defaults(func=cmd_diversity)
