"""CALM's analyses: robustness (subsets, perturbations), template agreement, diversity.

- ``subsets``: the score on random template (or prompt) subsets of a finished run, mean and
  standard deviation over all runs (paper Table 5).
- ``perturb``: the original and perturbed templates scored on a model, each score and its
  relative change (paper Table 4).
- ``diversity``: mean pairwise embedding similarity and length of the templates (Table 6).
- ``agreement``: templates whose favoured and disfavoured groups are the same in every run
  (the template error analysis of §6.1, Table 9).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from biasaudit.analysis import Analysis, AnalysisResult, Context
from biasaudit.benchmarks import Benchmark, BenchmarkOptions, Sample, SampleScore
from biasaudit.benchmarks.calm import data as d
from biasaudit.benchmarks.calm.agreement import compare_runs
from biasaudit.benchmarks.calm.benchmark import CALM, CALMOptions, scoring_options
from biasaudit.benchmarks.calm.diversity import (
    full_text,
    length_stats,
    mean_pairwise_bertscore,
    mean_pairwise_cosine,
    read_template_texts,
    similarity_text,
)
from biasaudit.benchmarks.calm.perturb import VERSIONS, Perturbation, perturb_template
from biasaudit.benchmarks.calm.robustness import mean_sd, relative_change, subset_runs
from biasaudit.benchmarks.calm.scoring import ScoredPrompt, score_prompts
from biasaudit.benchmarks.calm.summary import scored_prompts
from biasaudit.errors import BiasauditError, RunError
from biasaudit.requests import Capability, EmbedRequest, Request
from biasaudit.results.io import iter_samples, read_results
from biasaudit.results.schema import Exchange, Table


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _run_prompts(run_dir: str) -> tuple[list[ScoredPrompt], CALMOptions]:
    records = [r for r in iter_samples(run_dir) if r.benchmark == "calm"]
    if not records:
        raise RunError(f"{run_dir}: no CALM samples in samples.jsonl")
    options = read_results(run_dir).benchmark("calm").options
    return scored_prompts(records), CALMOptions.model_validate(options)


class SubsetsArgs(_Args):
    run_dir: str = Field(description="a finished CALM run directory")
    fractions: list[float] = Field([0.75, 0.5, 0.25], description="fractions of units to keep")
    runs: int = Field(2, ge=1, description="random subsets per fraction")
    unit: Literal["template", "prompt"] = Field("template", description="what is subsampled")

    @field_validator("fractions")
    @classmethod
    def _in_unit_interval(cls, value: list[float]) -> list[float]:
        if not value or any(not 0 < f <= 1 for f in value):
            raise ValueError("each fraction must be in (0, 1]")
        return value


def subsets(args: SubsetsArgs, ctx: Context) -> AnalysisResult:
    """The CALM score on random subsets of a finished run (Table 5)."""
    prompts, options = _run_prompts(args.run_dir)
    runs = subset_runs(
        prompts,
        scoring_options(options),
        fractions=args.fractions,
        runs_per_fraction=args.runs,
        unit=args.unit,
        seed=ctx.seed,
    )
    mean, sd = mean_sd([r.score for r in runs])
    rows: list[list[Any]] = [[r.fraction, r.run, r.score] for r in runs]
    rows += [["all", "mean", mean], ["all", "sd", sd]]
    table = Table(
        description=f"bias_score on random {args.unit} subsets",
        columns=["fraction", "run", "bias_score"],
        rows=rows,
    )
    return AnalysisResult(benchmark="calm", analysis="subsets", tables={"subsets": table})


class AgreementArgs(_Args):
    run_dirs: list[str] = Field(description="two or more finished CALM run directories")
    all: bool = Field(False, description="list every compared template, not only agreeing ones")

    @field_validator("run_dirs")
    @classmethod
    def _at_least_two(cls, value: list[str]) -> list[str]:
        if len(value) < 2:
            raise ValueError("needs at least two run directories")
        return value


def agreement(args: AgreementArgs, ctx: Context) -> AnalysisResult:
    """Templates whose favoured and disfavoured groups agree across runs (§6.1)."""
    results = []
    for run_dir in args.run_dirs:
        prompts, options = _run_prompts(run_dir)
        results.append(score_prompts(prompts, scoring_options(options)))
    agreements = compare_runs([r.templates for r in results])
    shown = [a for a in agreements if a.agrees or args.all]
    rows = [
        [
            a.task,
            a.attribute,
            a.template_id,
            " | ".join(f"{x[0]}>{x[1]}" if x else "-" for x in a.directions),
            a.agrees,
        ]
        for a in shown
    ]
    n_agree = sum(a.agrees for a in agreements)
    table = Table(
        description="favoured>disfavoured group per run",
        columns=["task", "attribute", "template", "directions", "agrees"],
        rows=rows,
    )
    return AnalysisResult(
        benchmark="calm",
        analysis="agreement",
        tables={"agreement": table},
        notes=[
            f"{n_agree} of {len(agreements)} template-attribute pairs show the same bias in "
            "every run"
        ],
    )


class PerturbArgs(_Args):
    model: str = Field("embedded", description="model spec")
    model_args: dict[str, Any] = Field(default_factory=dict, description="backend arguments")
    options: dict[str, Any] = Field(
        default_factory=dict, description="CALM options for every version (e.g. shots=0)"
    )
    versions: list[Perturbation] = Field(
        default_factory=lambda: list(VERSIONS), description="perturbations to score"
    )
    perturbation_seed: int = Field(0, description="seed of the perturbations")


def perturb(args: PerturbArgs, ctx: Context) -> AnalysisResult:
    """The CALM score of the original and perturbed templates on one model (Table 4)."""
    scores: dict[str, float | None] = {}
    for version in ["none", *args.versions]:
        options = {
            **args.options,
            "perturbation": version,
            "perturbation_seed": args.perturbation_seed,
        }
        bench = CALM.from_dict(options, ctx.store, ctx.seed)
        result, _ = ctx.run(bench, args.model, args.model_args)
        scores[version] = result.metric("bias_score").value
    original = scores["none"]
    mean, sd = mean_sd([scores[v] for v in args.versions])
    rows: list[list[Any]] = [[v, s, relative_change(original, s)] for v, s in scores.items()]
    rows.append(["perturbed mean", mean, relative_change(original, mean)])
    rows.append(["perturbed sd", sd, None])
    table = Table(
        description=f"bias_score per template version on {args.model}",
        columns=["version", "bias_score", "relative_change"],
        rows=rows,
    )
    return AnalysisResult(benchmark="calm", analysis="perturb", tables={"perturb": table})


class TemplateEmbeddingsOptions(BenchmarkOptions):
    tasks: list[str] = Field(default_factory=lambda: [str(t) for t in d.TASKS])
    perturbation: Perturbation | Literal["none"] = "none"
    perturbation_seed: int = 0
    #: token vectors (BERTScore) instead of one sentence vector per template
    tokens: bool = False
    #: another dataset's templates (one per line, or JSONL "text") instead of CALM's
    templates_file: str | None = None


class TemplateEmbeddings(Benchmark):
    """A job, not a benchmark: one embedding request per CALM template."""

    name: ClassVar[str] = "calm-template-embeddings"
    version: ClassVar[str] = "1.0"
    Options: ClassVar[type[BenchmarkOptions]] = TemplateEmbeddingsOptions
    options: TemplateEmbeddingsOptions

    def required_capabilities(self) -> frozenset[Capability]:
        return frozenset({Capability.EMBED})

    def data_keys(self) -> list[str]:
        return []

    def templates(self) -> list[d.Template]:
        out = []
        for task in self.options.tasks:
            gt = d.load_gt(self.store, task, "gender") if task == "sentiment" else None
            for template in d.load_templates(self.store, task, gt):
                if self.options.perturbation != "none":
                    template = perturb_template(
                        template, self.options.perturbation, self.options.perturbation_seed
                    )
                out.append(template)
        return out

    def load_samples(self) -> list[Sample]:
        if self.options.templates_file:
            texts = read_template_texts(self.options.templates_file)
            return [
                Sample(id=f"file:{i}", data={"text": t, "full_text": t}, groups={"task": "file"})
                for i, t in enumerate(texts)
            ]
        return [
            Sample(
                id=t.id,
                data={"text": similarity_text(t), "full_text": full_text(t)},
                groups={"task": t.task},
            )
            for t in self.templates()
        ]

    def next_requests(self, sample: Sample, exchanges: Sequence[Exchange]) -> list[Request]:
        if exchanges:
            return []
        return [EmbedRequest(text=sample.data["text"], tokens=self.options.tokens)]

    def score_sample(self, sample: Sample, exchanges: Sequence[Exchange]) -> SampleScore:
        response = exchanges[0].response
        vectors = response.token_embeddings if self.options.tokens else response.embedding
        if not vectors:
            reason = response.error or "the backend returned no token vectors"
            return SampleScore(["error"], {}, True, str(reason))
        return SampleScore(["answered"], {"embedding": vectors})


class DiversityArgs(_Args):
    model: str = Field("embedded-st", description="an embedding model spec")
    tasks: list[str] = Field(
        default_factory=lambda: [str(t) for t in d.TASKS], description="qa, nli, sentiment"
    )
    perturbation: Perturbation | Literal["none"] = Field(
        "none", description="embed perturbed templates instead"
    )
    perturbation_seed: int = Field(0, description="seed of the perturbation")
    include_diagonal: bool = Field(False, description="count each template's self-similarity")
    measure: Literal["bertscore", "cosine"] = Field(
        "bertscore",
        description="bertscore: F1 of token vectors (the paper's Table 6); cosine: of sentence "
        "vectors",
    )
    templates_file: str | None = Field(
        None, description="another dataset's templates (one per line, or JSONL 'text')"
    )

    @field_validator("tasks")
    @classmethod
    def _known(cls, value: list[str]) -> list[str]:
        unknown = sorted(set(value) - set(d.TASKS))
        if unknown:
            raise ValueError(f"unknown CALM task(s) {unknown}; use qa, nli, sentiment")
        return value


def diversity(args: DiversityArgs, ctx: Context) -> AnalysisResult:
    """Mean pairwise embedding similarity and length of the templates (Table 6)."""
    options = args.model_dump(include={"tasks", "perturbation", "perturbation_seed"})
    options |= {"tokens": args.measure == "bertscore", "templates_file": args.templates_file}
    job = TemplateEmbeddings.from_dict(options, ctx.store)
    _, records = ctx.run(job, args.model)
    failed = [r for r in records if r.excluded]
    if failed:
        raise BiasauditError(
            f"model '{args.model}' returned no embedding for {failed[0].sample_id}: "
            f"{failed[0].exclusion_reason}"
        )
    rows: list[list[Any]] = []
    labels = ["file"] if args.templates_file else [*args.tasks, "all"]
    pairwise = mean_pairwise_bertscore if args.measure == "bertscore" else mean_pairwise_cosine
    for label in labels:
        chosen = [r for r in records if label in ("all", r.groups["task"])]
        similarity = pairwise(
            [r.scores["embedding"] for r in chosen], include_diagonal=args.include_diagonal
        )
        length = length_stats([r.data["full_text"] for r in chosen])
        rows.append(
            [label, length.n, similarity, length.mean, length.sd, length.minimum, length.maximum]
        )
    table = Table(
        description=f"template diversity by {args.model} ({args.measure})",
        columns=["templates", "n", "similarity", "words_mean", "words_sd", "min", "max"],
        rows=rows,
    )
    return AnalysisResult(benchmark="calm", analysis="diversity", tables={"diversity": table})


SUBSETS = Analysis("subsets", "score on random subsets of a finished run", SubsetsArgs, subsets)
AGREEMENT = Analysis(
    "agreement",
    "templates whose bias direction is the same in several runs",
    AgreementArgs,
    agreement,
)
PERTURB = Analysis(
    "perturb", "score original and perturbed templates on a model", PerturbArgs, perturb
)
DIVERSITY = Analysis(
    "diversity", "embedding similarity and length of the templates", DiversityArgs, diversity
)
