"""The Python API: `evaluate()` runs benchmarks on models; `score()` re-scores a run;
`merge()` combines shards; `analyze()` runs a benchmark's analysis."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, overload

from biasaudit.analysis import AnalysisResult, Context
from biasaudit.analysis import analysis_of as analysis
from biasaudit.contract import Benchmark
from biasaudit.data import DataStore
from biasaudit.discovery import open_store
from biasaudit.errors import RunError
from biasaudit.merging import merge as merge  # the API's merge() lives there
from biasaudit.models.spec import validate_model
from biasaudit.plugin import build, get_spec
from biasaudit.profile.validity import judge as judge_validity
from biasaudit.rescoring import allowed_failures, make_output_dir, rescore_benchmark
from biasaudit.results.io import (
    SamplesWriter,
    check_samples_match,
    iter_samples,
    read_results,
    read_run_config,
    remove_outputs,
    write_results,
    write_run_config,
    write_samples,
)
from biasaudit.results.lock import LOCK_FILE, check_unlocked, run_lock
from biasaudit.results.plan import plan_of_config
from biasaudit.results.schema import SCHEMA_VERSION, BenchmarkResult, RunResult, SampleRecord
from biasaudit.results.status import judge
from biasaudit.runner.engine import execute
from biasaudit.runner.plan import RunHooks, RunPlan
from biasaudit.runner.runner import RunConfig
from biasaudit.selection import sample_benchmark


def build_benchmarks(
    names: Sequence[str],
    options: dict[str, dict[str, Any]] | None,
    store: DataStore,
    seed: int,
) -> list[Benchmark]:
    """Instantiate benchmarks by name; `options` maps a benchmark name to its options."""
    options = options or {}
    for name in options:
        if name not in names:
            raise RunError(f"options given for benchmark '{name}', which is not being run")
    return [build(name, options.get(name, {}), store, seed) for name in names]


def _check_output(
    output_dir: Path | None, resume: bool, overwrite: bool, config: dict[str, Any]
) -> None:
    """Refuse an output directory the run may not use, before anything is written: a file,
    a live run's directory, a run without --resume/--overwrite, another run with --resume."""
    if output_dir is None:
        return
    if resume and overwrite:
        raise RunError("--resume and --overwrite contradict each other; pass one of them")
    if output_dir.exists() and not output_dir.is_dir():
        raise RunError(f"{output_dir}: not a directory")
    check_unlocked(output_dir)
    # the lock, and the audit.json an audit writes first to claim the folder, hold no run
    held = output_dir.exists() and any(
        p.name not in (LOCK_FILE, "audit.json") for p in output_dir.iterdir()
    )
    if not held:
        return
    if resume:
        previous = read_run_config(output_dir)
        if previous is not None and previous != config:
            changed = sorted(k for k in config if previous.get(k) != config.get(k))
            raise RunError(
                f"{output_dir}: --resume with different settings than the original run "
                f"({', '.join(changed)})"
            )
    elif not overwrite:
        read_run_config(output_dir)  # a damaged run.json is named as such
        raise RunError(
            f"{output_dir} already holds a run; pass --resume to continue it or "
            f"--overwrite to replace it"
        )


def model_slug(model: str) -> str:
    """A folder name for one model's outputs in a several-model run."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", model).strip("_")
    return slug or "model"


@overload
def evaluate(benchmarks: str | Sequence[str], model: str = ..., **kwargs: Any) -> RunResult: ...


@overload
def evaluate(
    benchmarks: str | Sequence[str], model: list[str], **kwargs: Any
) -> list[RunResult]: ...


def evaluate(
    benchmarks: str | Sequence[str],
    model: str | list[str] = "embedded",
    **kwargs: Any,
) -> RunResult | list[RunResult]:
    """Run `benchmarks` on `model` (one spec, or a list of specs) and return typed results.

    With several models, each model's outputs go to ``output_dir/<model slug>/`` and a list
    of results is returned, one per model, in order. See `evaluate_one` for the arguments.
    """
    if isinstance(model, str):
        return evaluate_one(benchmarks, model, **kwargs)
    if not model:
        raise RunError("no model given")
    if len(set(model)) != len(model):
        raise RunError("the same model is given twice")
    for spec in model:  # every model checked before the first one writes anything
        validate_model(spec, kwargs.get("model_args"))
    output_dir = kwargs.pop("output_dir", None)
    results = []
    for spec in model:
        out = Path(output_dir) / model_slug(spec) if output_dir is not None else None
        results.append(evaluate_one(benchmarks, spec, output_dir=out, **kwargs))
    return results


def _refuse_repeats(names: Sequence[str]) -> None:
    """A benchmark named twice would run every sample twice: refuse it in one line."""
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise RunError(f"benchmark(s) named twice: {', '.join(twice)}; name each once")


def evaluate_one(
    benchmarks: str | Sequence[str],
    model: str = "embedded",
    *,
    options: dict[str, dict[str, Any]] | None = None,
    model_args: dict[str, Any] | None = None,
    output_dir: str | Path | None = None,
    data_dir: str | Path | None = None,
    cache_path: str | Path | None = None,
    use_cache: bool = True,
    seed: int = 0,
    batch_size: int | None = None,
    limit: int | None = None,
    shard: tuple[int, int] | None = None,
    resume: bool = False,
    overwrite: bool = False,
    progress: bool = True,
    max_failed_samples: int = 0,
    sample: int | None = None,
) -> RunResult:
    """Run `benchmarks` on one model through the run engine.

    With `output_dir`, results.json and samples.jsonl are written there (results.json is
    rewritten after each benchmark, so finished benchmarks survive a later failure; its
    `status` says "partial" until the last one is written). Everything the run is given is
    validated before anything is written. The returned run's `status` is "complete" only when
    every benchmark finished and at most `max_failed_samples` samples were lost to request
    errors (see `biasaudit.results.status`).

    `sample` draws a stratified sample of that many units from every benchmark, by the keys
    it declares (`biasaudit.sampling`). This builds a `RunPlan` from the names and settings
    and runs it (`run_plan`); an audit builds its plans itself.
    """
    names = [benchmarks] if isinstance(benchmarks, str) else list(benchmarks)
    for name in names:
        get_spec(name)
    _refuse_repeats(names)
    store = open_store(data_dir)
    bench_objects = build_benchmarks(names, options, store, seed)
    if sample is not None:
        if limit is not None:
            raise RunError("--sample and --limit cannot be combined: pick one")
        _check_settings(limit, batch_size, shard, max_failed_samples)
        for bench in bench_objects:  # the data is checked before any sample is drawn
            check_data(bench)
    selections = (
        {b.name: sample_benchmark(b, sample, seed) for b in bench_objects} if sample else {}
    )
    plan = RunPlan(
        bench_objects,
        seed=seed,
        selections=selections,
        limit=limit,
        shard=shard,
        batch_size=batch_size,
        cache_path=cache_path,
        use_cache=use_cache,
        output_dir=Path(output_dir) if output_dir is not None else None,
        resume=resume,
        overwrite=overwrite,
        max_failed_samples=max_failed_samples,
        hooks=RunHooks(progress=progress),
    )
    return run_plan(plan, model, model_args)


def check_data(bench: Benchmark) -> None:
    """Verify the benchmark's pinned files, and read its samples when the user gave files of
    their own (so their mistakes stop the run before anything is written)."""
    for key in bench.data_keys():
        bench.store.path(key)
    if bench.user_files():
        bench.samples()


def run_plan(plan: RunPlan, model: str, model_args: dict[str, Any] | None = None) -> RunResult:
    """Run `plan` on one model through the run engine (see `evaluate_one` for what is
    written and when); everything is validated before anything is written."""
    names = plan.names
    _refuse_repeats(names)
    for bench in plan.benchmarks:
        check_data(bench)
    limit, shard, seed = plan.limit, plan.shard, plan.seed
    _check_settings(limit, plan.batch_size, shard, plan.max_failed_samples)
    selections = plan.selections
    max_failed_samples, hooks = plan.max_failed_samples, plan.hooks
    validate_model(model, model_args)
    out = plan.output_dir
    run_config = {
        "benchmarks": names,
        "model": model,
        "options": {b.name: b.options.model_dump(mode="json") for b in plan.benchmarks},
        "model_args": model_args or {},
        "seed": seed,
        "limit": limit,
        "shard": list(shard) if shard else None,
    }
    if selections:  # only then, so that runs from before sample plans resume as they were
        run_config["samples"] = {
            n: sel.plan.model_dump(mode="json") for n, sel in selections.items()
        }
    _check_output(out, plan.resume, plan.overwrite, run_config)
    config = RunConfig(
        seed=seed,
        batch_size=plan.batch_size,
        limit=limit,
        shard=shard,
        progress=hooks.progress,
        selections=selections,
        progress_prefix=hooks.progress_prefix,
        overall=hooks.overall_bar,
        judge=judge_validity,
    )
    on_progress = hooks.on_progress
    plan_hash = plan_of_config(run_config)
    engine: dict[str, Any] = {
        "model": model,
        "model_args": model_args,
        "config": config,
        "cache_path": plan.cache_path,
        "use_cache": plan.use_cache,
        "tolerate": plan.tolerate,
    }
    if out is None:
        run, records = execute(
            plan.benchmarks, on_record=_discard,
            on_progress=(
                (lambda r, rec: on_progress(judge(r, rec, _planned(r, names), max_failed_samples)))
                if on_progress is not None
                else None
            ),
            **engine,
        )  # fmt: skip
        judged = judge(run, records, _planned(run, names), max_failed_samples)
        return judged.model_copy(update={"plan": plan_hash})
    created = make_output_dir(out)
    with run_lock(out):
        # samples.jsonl is streamed as samples finish; results.json is rewritten after each
        # benchmark from the compact per-sample table the runner keeps.
        writer = SamplesWriter(out)
        started = False

        def start() -> None:
            """The backend, the cache and a replay file opened cleanly: the run begins."""
            nonlocal started
            if plan.overwrite:
                remove_outputs(out)
            write_run_config(out, run_config)
            started = True

        def save(run: RunResult, records: Sequence[SampleRecord]) -> None:
            writer.start()  # a benchmark with no sample still leaves a samples.jsonl
            judged = judge(run, records, _planned(run, names), max_failed_samples)
            judged = judged.model_copy(update={"plan": plan_hash})
            write_results(out, judged)
            if on_progress is not None:
                on_progress(judged)

        try:
            run, records = execute(
                plan.benchmarks, on_start=start, on_progress=save, on_record=writer.write,
                **engine,
            )  # fmt: skip
        except RunError:  # a write error, a full disk: the previous run, if any, is put back
            writer.restore()
            raise
        else:
            writer.finish()
        finally:
            writer.close()
            if created and not started:  # a failed start leaves nothing behind
                (out / LOCK_FILE).unlink(missing_ok=True)
                with contextlib.suppress(OSError):
                    out.rmdir()
    judged = judge(run, records, _planned(run, names), max_failed_samples)
    return judged.model_copy(update={"plan": plan_hash})


def _planned(run: RunResult, names: Sequence[str]) -> list[str]:
    """The benchmarks a run stands for: those asked for, less those it skipped."""
    return [name for name in names if name not in run.skipped]


def _discard(record: SampleRecord) -> None:
    """Where full records go when a run has no output directory (only its result is kept)."""


def _check_settings(
    limit: int | None,
    batch_size: int | None,
    shard: tuple[int, int] | None,
    max_failed_samples: int,
) -> None:
    """Refuse impossible run settings before anything is written."""
    for flag, value in (("--limit", limit), ("--batch-size", batch_size)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise RunError(f"{flag} must be a whole number, got {value!r}")
        if value is not None and value < 1:
            raise RunError(f"{flag} must be at least 1, got {value}")
    if shard is not None:
        index, count = shard
        if not 0 <= index < count:
            raise RunError(f"--shard {index}/{count}: need 0 <= i < N")
    if max_failed_samples < 0:
        raise RunError(f"--max-failed-samples must be 0 or more, got {max_failed_samples}")


def score(
    run_dir: str | Path, *, data_dir: str | Path | None = None, write: bool = True
) -> RunResult:
    """Recompute a run's results from its samples.jsonl, without a model."""
    run_path = Path(run_dir)
    if write:
        check_unlocked(run_path)  # a live run is appending to samples.jsonl
    run = read_results(run_path)
    records_by_bench: dict[str, list[SampleRecord]] = {}
    for record in iter_samples(run_path):
        records_by_bench.setdefault(record.benchmark, []).append(record)
    check_samples_match(run_path, run, records_by_bench)
    store = open_store(data_dir)
    new_results: list[BenchmarkResult] = []
    all_records: list[SampleRecord] = []
    for previous in run.benchmarks:
        bench = build(previous.benchmark, previous.options, store, run.seed)
        records = records_by_bench.get(previous.benchmark, [])
        result, rescored = rescore_benchmark(bench, previous, records, run.seed)
        new_results.append(result)
        all_records.extend(rescored)
    rescored_run = run.model_copy(
        update={"benchmarks": new_results, "schema_version": SCHEMA_VERSION}
    )
    planned = run.benchmarks_planned or [b.benchmark for b in run.benchmarks]
    rescored_run = judge(rescored_run, all_records, planned, allowed_failures(run))
    if write:
        with run_lock(run_path):
            write_results(run_path, rescored_run)
            write_samples(run_path, all_records)
    return rescored_run


def analyze(
    benchmark: str,
    name: str,
    args: dict[str, Any] | None = None,
    *,
    data_dir: str | Path | None = None,
    output_dir: str | Path | None = None,
    seed: int = 0,
    cache_path: str | Path | None = None,
    use_cache: bool = True,
    progress: bool = True,
) -> AnalysisResult:
    """Run analysis `name` of `benchmark` with `args` (validated by its argument model)."""
    from biasaudit.options import parse_options

    chosen = analysis(benchmark, name)
    parsed = parse_options(chosen.Args, args or {}, f"{benchmark} {name}")
    ctx = Context(
        store=open_store(data_dir),
        seed=seed,
        output_dir=Path(output_dir) if output_dir is not None else None,
        progress=progress,
        cache_path=cache_path,
        use_cache=use_cache,
    )
    return chosen.run(parsed, ctx)
