"""`biasaudit cobias ...`: score, generate (points, contexts), diagnostics, ensemble, validate.

`score` is a thin wrapper over `biasaudit.evaluate` (the benchmark "cobias"); the other
commands run COBIAS's auxiliary steps through the same runner and cache (see `tasks`).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from biasaudit.errors import BiasauditError, RunError

if TYPE_CHECKING:  # the CLI module is imported by every `biasaudit` call: keep it light
    from biasaudit.benchmarks.base import Aggregate
    from biasaudit.benchmarks.cobias.data import Statement
    from biasaudit.results.schema import MetricValue


def _print_aggregate(title: str, metrics: Sequence[MetricValue]) -> None:
    from biasaudit.textfmt import format_table

    print(f"\n{title}")
    rows = [[m.name, m.value, m.ci_low, m.ci_high, m.n, m.n_excluded] for m in metrics]
    print(format_table(["metric", "value", "ci_low", "ci_high", "n", "excluded"], rows))


def _run_args(parser: argparse.ArgumentParser, model_required: bool = True) -> None:
    parser.add_argument(
        "--model",
        "-m",
        required=model_required,
        action="append",
        metavar="SPEC",
        help="model spec (score: repeat it to average tau over several models)",
    )
    parser.add_argument("--model-arg", "-M", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--limit", type=int, help="only the first N statements")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch-size", type=int)
    parser.add_argument("--cache", help="response cache file (default ~/.cache/biasaudit)")
    parser.add_argument("--no-cache", action="store_true")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def _slug(spec: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", spec).strip("_") or "model"


# -- score --------------------------------------------------------------------------------


def cmd_score(args: argparse.Namespace) -> int:
    from biasaudit.api import evaluate
    from biasaudit.benchmarks.cobias.ensemble import ensemble
    from biasaudit.options import parse_cli_pairs

    options: dict[str, Any] = parse_cli_pairs(args.option)
    if args.dataset:
        options["dataset"] = args.dataset
    if args.contexts:
        options["contexts"] = args.contexts
    if len(args.model) > 1 and not args.output:
        raise RunError("several --model need --output (one run directory per model)")
    run_dirs: list[Path] = []
    for spec in args.model:
        out = None
        if args.output:
            out = Path(args.output) / _slug(spec) if len(args.model) > 1 else Path(args.output)
            run_dirs.append(out)
        run = evaluate(
            "cobias",
            spec,
            options={"cobias": options},
            model_args=parse_cli_pairs(args.model_arg),
            output_dir=out,
            data_dir=args.data_dir,
            cache_path=args.cache,
            use_cache=not args.no_cache,
            seed=args.seed,
            batch_size=args.batch_size,
            limit=args.limit,
            resume=args.resume,
            overwrite=args.overwrite,
            progress=not args.quiet,
        )
        bench = run.benchmark("cobias")
        _print_aggregate(
            f"cobias on {spec}: {bench.n_samples} statements, {bench.n_excluded} excluded, "
            f"estimator {bench.options.get('estimator')}, {bench.wall_time_s:.1f}s",
            bench.metrics,
        )
    if len(run_dirs) > 1:
        scorers, aggregate = ensemble(run_dirs, seed=args.seed)
        _print_aggregate(
            "ensemble (tau averaged over " + ", ".join(scorers) + ")", aggregate.metrics
        )
        _write_aggregate(Path(args.output) / "ensemble.json", aggregate)
    if args.output:
        print(f"\nwrote {args.output}")
    return 0


def _aggregate_json(aggregate: Aggregate) -> dict[str, Any]:
    return {
        "metrics": [m.model_dump(mode="json") for m in aggregate.metrics],
        "tables": {k: t.model_dump(mode="json") for k, t in aggregate.tables.items()},
    }


def _write_aggregate(path: Path, aggregate: Aggregate) -> None:
    _write_json(path, _aggregate_json(aggregate))


def _write_json(path: Path, payload: dict[str, Any]) -> None:
    path.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def cmd_ensemble(args: argparse.Namespace) -> int:
    from biasaudit.benchmarks.cobias.ensemble import ensemble

    scorers, aggregate = ensemble([Path(p) for p in args.run_dirs], seed=args.seed)
    _print_aggregate("ensemble (tau averaged over " + ", ".join(scorers) + ")", aggregate.metrics)
    if args.output:
        _write_aggregate(Path(args.output), aggregate)
        print(f"wrote {args.output}")
    return 0


# -- generate -----------------------------------------------------------------------------


def _statements(name: str, data_dir: str | None, limit: int | None) -> list[Statement]:
    from biasaudit.benchmarks.cobias.data import read_statements, resolve
    from biasaudit.data import DataStore

    statements = read_statements(resolve(name, DataStore(data_dir)))
    return statements[:limit] if limit is not None else statements


def _run(task: Any, args: argparse.Namespace) -> Any:
    from biasaudit.benchmarks.cobias.tasks import run_task
    from biasaudit.options import parse_cli_pairs

    if len(args.model) > 1:
        raise RunError("this command takes one --model")
    return run_task(
        task,
        args.model[0],
        model_args=parse_cli_pairs(args.model_arg),
        cache_path=args.cache,
        use_cache=not args.no_cache,
        batch_size=args.batch_size,
        progress=not args.quiet,
    )


def cmd_generate_points(args: argparse.Namespace) -> int:
    from biasaudit.benchmarks.cobias.data import DATASET_KEY, Statement, write_statements
    from biasaudit.benchmarks.cobias.generation import PointsOptions, PointsTask
    from biasaudit.data import DataStore
    from biasaudit.options import parse_cli_pairs, parse_options

    statements = _statements(args.dataset, args.data_dir, args.limit)
    examples = _statements(args.examples or DATASET_KEY, args.data_dir, None)
    options = parse_options(PointsOptions, parse_cli_pairs(args.option), "cobias generate points")
    task = PointsTask(options, DataStore(args.data_dir), args.seed, statements, examples)
    done = _run(task, args)
    by_id = {r.sample_id: r for r in done.records}
    out_rows = []
    extra = []
    for s in statements:
        scores = by_id[s.id].scores
        template = scores.get("template", "")
        out_rows.append(Statement(s.id, s.sentence, s.target_term, template))
        extra.append(
            {
                "points_valid": str(not scores.get("problems", ["error"])),
                "points_problems": ";".join(scores.get("problems", ["error"])),
            }
        )
    write_statements(Path(args.output), out_rows, extra)
    _print_aggregate(f"context-addition points by {args.model[0]}", done.result.metrics)
    print(f"wrote {args.output}")
    return 0


def cmd_generate_contexts(args: argparse.Namespace) -> int:
    from biasaudit.benchmarks.cobias.generation import (
        ContextsOptions,
        ContextsTask,
        require_templates,
        write_contexts,
    )
    from biasaudit.data import DataStore
    from biasaudit.options import parse_cli_pairs, parse_options

    statements = _statements(args.dataset, args.data_dir, args.limit)
    require_templates(statements, args.dataset)
    pairs = parse_cli_pairs(args.option)
    options = parse_options(ContextsOptions, pairs, "cobias generate contexts")
    if options.temperature == 0 and options.n_generate > 1:
        print(
            "biasaudit: warning: temperature 0 gives identical versions, so cv = 0 and "
            "COBIAS = 0 for every statement",
            file=sys.stderr,
        )
    task = ContextsTask(options, DataStore(args.data_dir), args.seed, statements)
    done = _run(task, args)
    model = {"spec": done.model.spec, "fingerprint": done.model.fingerprint}
    written = write_contexts(Path(args.output), done.records, task.settings(), model)
    _print_aggregate(
        f"context generation by {args.model[0]} ({done.result.wall_time_s:.1f}s)",
        done.result.metrics,
    )
    print(f"wrote {written} statements to {args.output}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from biasaudit.benchmarks.cobias.data import (
        CROWS_PAIRS_KEY,
        STEREOSET_KEY,
        Statement,
        resolve,
        write_statements,
    )
    from biasaudit.benchmarks.cobias.pairs import read_crows_pairs, read_stereoset_intrasentence
    from biasaudit.data import DataStore

    store = DataStore(args.data_dir)
    if args.source == "crows-pairs":
        path = resolve(args.file or CROWS_PAIRS_KEY, store)
        records = read_crows_pairs(path)
    else:
        records = read_stereoset_intrasentence(resolve(args.file or STEREOSET_KEY, store))
    statements = [Statement(r.id, r.sentence, r.target_term) for r in records]
    extra = [
        {
            "original_dataset": r.original_dataset,
            "bias_type": r.bias_type,
            "direction": r.direction,
            "sentence_1": r.sentence_1,
            "sentence_2": r.sentence_2,
            "sentence_merged": r.sentence_merged,
        }
        for r in records
    ]
    write_statements(Path(args.output), statements, extra)
    print(f"wrote {len(statements)} statements to {args.output}")
    return 0


def cmd_verify_export(args: argparse.Namespace) -> int:
    from biasaudit.benchmarks.cobias.verification import write_items

    statements = _statements(args.dataset, args.data_dir, args.limit)
    write_items(Path(args.output), statements)
    print(f"wrote {len(statements)} items to {args.output}; fill 'label' with yes or no")
    return 0


def cmd_verify_summarize(args: argparse.Namespace) -> int:
    from biasaudit.benchmarks.cobias.data import write_statements
    from biasaudit.benchmarks.cobias.verification import read_labels, summarize
    from biasaudit.textfmt import format_table

    ids, labels = read_labels([Path(p) for p in args.labels])
    result = summarize(ids, labels)
    levels = sorted({lvl for counts in result.table.values() for lvl in counts})
    print(
        format_table(
            ["class", *levels],
            [[c, *(result.table[c].get(lvl, 0) for lvl in levels)] for c in result.table],
        )
    )
    rows: list[list[Any]] = [
        ["items", result.n_items],
        ["complete (no missing label)", result.n_complete],
        ["accepted by majority", len(result.accepted)],
        ["acceptance rate", result.acceptance_rate],
        ["perfect agreement", result.perfect_agreement],
        ["Fleiss kappa", result.fleiss_kappa],
        ["Cohen kappa (2 annotators)", result.cohen_kappa],
    ]
    print(format_table(["quantity", "value"], rows))
    if args.accepted:
        if not args.dataset:
            raise BiasauditError("--accepted needs --dataset (the statements to keep)")
        keep = set(result.accepted)
        statements = _statements(args.dataset, args.data_dir, None)
        write_statements(Path(args.accepted), [s for s in statements if s.id in keep])
        print(f"wrote {len(keep)} accepted statements to {args.accepted}")
    return 0


# -- diagnostics and validation ---------------------------------------------------------------


def _diagnose(args: argparse.Namespace, contexts: str) -> tuple[Any, list[Any], Aggregate]:
    """Diagnostics of one contexts file: (task, records, aggregate)."""
    from biasaudit.benchmarks.cobias.data import read_contexts, resolve
    from biasaudit.benchmarks.cobias.diagnostics import DiagnosticsOptions, DiagnosticsTask
    from biasaudit.data import DataStore
    from biasaudit.options import parse_cli_pairs, parse_options
    from biasaudit.runner.runner import score_record

    store = DataStore(args.data_dir)
    statements = _statements(args.dataset, args.data_dir, args.limit)
    versions = read_contexts(resolve(contexts, store))
    pairs = parse_cli_pairs(args.option)
    if args.no_embed:
        pairs["embed"] = False
    options = parse_options(DiagnosticsOptions, pairs, "cobias diagnostics")
    task = DiagnosticsTask(options, store, args.seed, statements, versions)
    if not task.statements:
        raise BiasauditError(f"{contexts}: no versions for any templated statement")
    if options.embed:
        args.model = args.model or ["embedded-st"]
        records = _run(task, args).records
    else:
        records = [score_record(task, s, []) for s in task.load_samples()]
    return task, records, task.aggregate(records, args.seed)


def cmd_diagnostics(args: argparse.Namespace) -> int:
    from biasaudit.benchmarks.cobias.data import write_contexts_jsonl
    from biasaudit.textfmt import format_table

    results = [(name, *_diagnose(args, name)) for name in args.contexts]
    for name, _, _, aggregate in results:
        _print_aggregate(f"generation quality of {name}", aggregate.metrics)
    if len(results) > 1:
        # Table 2 layout: one row per generator/setting, SS read only where ED passes
        rows = []
        for name, task, _, aggregate in results:
            values = {m.name: m.value for m in aggregate.metrics}
            ed = values.get("ed_mean")
            passes = ed is not None and ed < task.threshold
            rows.append(
                [
                    name,
                    ed,
                    values.get("ss_con"),
                    values.get("ss_rep"),
                    "yes" if passes else f"no (ED >= {task.threshold:.3g})",
                ]
            )
        print()
        print(format_table(["contexts", "ED", "SS_con", "SS_rep", "ED filter"], rows))
    if args.output:
        if len(results) == 1:
            _write_aggregate(Path(args.output), results[0][3])
        else:
            _write_json(Path(args.output), {name: _aggregate_json(a) for name, _, _, a in results})
        print(f"wrote {args.output}")
    if args.filtered_output:
        if len(results) > 1:
            raise BiasauditError("--filtered-output takes a single --contexts")
        _, task, records, _ = results[0]
        write_contexts_jsonl(Path(args.filtered_output), task.filtered(records))
        print(f"wrote versions with ED <= {task.threshold:.3g} to {args.filtered_output}")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    from biasaudit.benchmarks.cobias.validation import (
        krippendorff_alpha,
        read_ratings,
        spearman,
    )
    from biasaudit.textfmt import format_table

    ratings = read_ratings(Path(args.ratings))
    scores = _scores_from(Path(args.scores))
    means = ratings.means()
    ids = [i for i in ratings.ids if i in scores and i in means]
    if len(ids) < 3:
        raise BiasauditError(
            f"{args.scores} and {args.ratings} share {len(ids)} ids; need at least 3"
        )
    human = spearman([scores[i] for i in ids], [means[i] for i in ids])
    rows = [
        ["n", human.n],
        ["Spearman rho", human.rho],
        ["Spearman p", human.p],
        [
            f"raters' Krippendorff alpha, interval ({len(ratings.ids)} items)",
            krippendorff_alpha(ratings.by_rater()),
        ],
        [
            f"raters' Krippendorff alpha, ordinal ({len(ratings.ids)} items)",
            krippendorff_alpha(ratings.by_rater(), "ordinal"),
        ],
    ]
    print(format_table(["quantity", "value"], rows))
    return 0


def _scores_from(path: Path) -> dict[str, float]:
    """id -> COBIAS from a CSV (id, cobias) or a run directory's statements table."""
    from biasaudit.benchmarks.cobias.validation import read_scores
    from biasaudit.results.io import read_results

    if not path.is_dir():
        return read_scores(path)
    table = read_results(path).benchmark("cobias").tables["statements"]
    at = {c: i for i, c in enumerate(table.columns)}
    return {
        str(r[at["id"]]): float(r[at["cobias"]]) for r in table.rows if r[at["cobias"]] is not None
    }


# -- registration ---------------------------------------------------------------------------


def register(subparsers: Any, data_parent: argparse.ArgumentParser) -> None:
    cobias = subparsers.add_parser(
        "cobias", help="COBIAS: score, generate points/contexts, diagnostics, ensemble, validate"
    )
    sub = cobias.add_subparsers(dest="cobias_command", required=True, metavar="STEP")

    score = sub.add_parser(
        "score", parents=[data_parent], help="score statements (wraps biasaudit run cobias)"
    )
    score.add_argument("dataset", nargs="?", help="CSV or pinned key (default: released set)")
    score.add_argument("--contexts", help="versions: JSONL, a folder of {id}.pkl, or a key")
    _run_args(score)
    score.add_argument(
        "--option",
        "-O",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="benchmark option, e.g. estimator=causal, n_versions=10",
    )
    score.add_argument("--output", "-o", help="run directory (one per model under it if several)")
    score.add_argument("--resume", action="store_true")
    score.add_argument("--overwrite", action="store_true")
    score.set_defaults(func=cmd_score)

    imp = sub.add_parser(
        "import",
        parents=[data_parent],
        help="CrowS-Pairs / StereoSet pairs -> statements CSV (merged, target)",
    )
    imp.add_argument("source", choices=["crows-pairs", "stereoset"])
    imp.add_argument("--file", help="local file (default: the pinned release)")
    imp.add_argument("--output", "-o", required=True, help="CSV to write")
    imp.set_defaults(func=cmd_import)

    verify = sub.add_parser("verify", help="human yes/no verification of context points")
    verify_sub = verify.add_subparsers(dest="verify_step", required=True, metavar="STEP")
    export = verify_sub.add_parser(
        "export", parents=[data_parent], help="a labelling sheet (id, sentence, template, label)"
    )
    export.add_argument("dataset")
    export.add_argument("--output", "-o", required=True)
    export.add_argument("--limit", type=int)
    export.set_defaults(func=cmd_verify_export)
    summ = verify_sub.add_parser(
        "summarize",
        parents=[data_parent],
        help="majority vote and agreement (Table 1) over label sheets",
    )
    summ.add_argument("labels", nargs="+", metavar="SHEET", help="one filled sheet per annotator")
    summ.add_argument("--dataset", help="statements, to write the accepted ones")
    summ.add_argument("--accepted", help="CSV of statements accepted by majority vote")
    summ.set_defaults(func=cmd_verify_summarize)

    generate = sub.add_parser("generate", help="generate context-addition points or contexts")
    gen_sub = generate.add_subparsers(dest="what", required=True, metavar="WHAT")
    points = gen_sub.add_parser(
        "points", parents=[data_parent], help="add ___ blanks to statements (Fig. 3 prompt)"
    )
    points.add_argument("dataset", help="CSV with id, sentence[, target_term]")
    points.add_argument("--output", "-o", required=True, help="CSV to write")
    points.add_argument("--examples", help="CSV of worked examples (default: released set)")
    points.add_argument(
        "--option",
        "-O",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="shots, temperature, max_attempts, retry_temperature, max_tokens",
    )
    _run_args(points)
    points.set_defaults(func=cmd_generate_points)

    contexts = gen_sub.add_parser(
        "contexts", parents=[data_parent], help="fill the blanks n times (Fig. 6 prompt)"
    )
    contexts.add_argument("dataset", help="CSV with id, sentence, context_points")
    contexts.add_argument("--output", "-o", required=True, help="JSONL to write")
    contexts.add_argument(
        "--option",
        "-O",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="n_generate, n_keep, temperature, top_p, max_tokens, prompt_style, postprocess",
    )
    _run_args(contexts)
    contexts.set_defaults(func=cmd_generate_contexts)

    diag = sub.add_parser(
        "diagnostics",
        parents=[data_parent],
        help="ED, SS_con, SS_rep of generated versions; ED filter",
    )
    diag.add_argument("dataset", help="CSV with id, sentence, context_points")
    diag.add_argument(
        "--contexts",
        required=True,
        action="append",
        help="versions: JSONL, {id}.pkl folder, key; repeat it to compare "
        "generators or temperatures (Table 2 layout)",
    )
    diag.add_argument("--no-embed", action="store_true", help="ED only, no embedding model")
    diag.add_argument(
        "--option",
        "-O",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="ed_mode, ed_threshold, ed_fraction, ss_con_reference",
    )
    diag.add_argument("--output", "-o", help="JSON report to write")
    diag.add_argument("--filtered-output", help="JSONL of versions within the ED threshold")
    _run_args(diag, model_required=False)
    diag.set_defaults(func=cmd_diagnostics)

    ens = sub.add_parser("ensemble", help="average tau over runs of several models")
    ens.add_argument("run_dirs", nargs="+", metavar="RUN_DIR")
    ens.add_argument("--output", "-o", help="JSON to write")
    ens.add_argument("--seed", type=int, default=0)
    ens.set_defaults(func=cmd_ensemble)

    val = sub.add_parser("validate", help="COBIAS vs human ratings: Spearman, Krippendorff")
    val.add_argument("--scores", required=True, help="CSV (id, cobias) or a cobias run dir")
    val.add_argument("--ratings", required=True, help="CSV with id and Annotator N columns")
    val.set_defaults(func=cmd_validate)
