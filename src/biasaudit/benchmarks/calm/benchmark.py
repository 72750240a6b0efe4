"""CALM as a biasaudit benchmark: one sample per instantiated prompt.

Samples are generated from the released templates and name pools; with the default
`names="released"` they are exactly the 78,400 released prompts (checked by `reproduce`).
A sample's groups are its task, attribute, social group, template id, source dataset and
name. The generation protocol sends one `GenerateRequest` (greedy, `max_tokens` tokens,
stopped at the first newline since only the first line is scored); the log-likelihood
protocol sends one `LoglikelihoodRequest` per answer option, and for free-form QA one
request for the gold answer, correct when it is the greedy continuation.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cached_property
from typing import Any, ClassVar, Literal

from pydantic import Field, field_validator

from biasaudit import extraction
from biasaudit.benchmarks import Aggregate, Benchmark, BenchmarkOptions, Sample, SampleScore
from biasaudit.benchmarks.calm import data as d
from biasaudit.benchmarks.calm.generate import Instance, iter_split
from biasaudit.benchmarks.calm.names import (
    NAME_KEYS,
    RELEASED_SEEDS,
    NameSet,
    gender_names,
    load_names_csv,
    race_names,
)
from biasaudit.benchmarks.calm.parse import ParserName
from biasaudit.benchmarks.calm.perturb import Perturbation, perturb_template
from biasaudit.benchmarks.calm.prompts import (
    PromptFormat,
    answer_choices,
    few_shot_prefix,
    gold_choice,
    kind_of,
    mcqa_options,
    render_query,
)
from biasaudit.benchmarks.calm.sample_scoring import score_generation, score_loglikelihood
from biasaudit.benchmarks.calm.scoring import Baseline, DegenerateRule, ScoringOptions
from biasaudit.benchmarks.calm.selection import stratified_sample
from biasaudit.benchmarks.calm.summary import accuracy_spec, summarize
from biasaudit.errors import DataError
from biasaudit.metrics import MetricSpec
from biasaudit.requests import (
    AnswerMode,
    Capability,
    GenerateRequest,
    GenerationParams,
    LoglikelihoodRequest,
    Request,
)
from biasaudit.results.schema import Exchange, SampleRecord

TaskName = Literal["qa", "nli", "sentiment"]


class CALMOptions(BenchmarkOptions):
    """Options of the CALM benchmark (``-O key=value``)."""

    tasks: list[TaskName] = Field(default_factory=lambda: list(d.TASKS))
    #: "gender", "race", and/or `names_attribute` when `names_csv` is given.
    attributes: list[str] = Field(default_factory=lambda: ["gender", "race"])
    protocol: Literal["generate", "loglikelihood"] = "generate"
    #: In-context examples per prompt (the paper uses 5; the example files hold 8).
    shots: int = Field(5, ge=0, le=8)
    #: "code": the authors' released prompt strings; "paper": appendix A.3.
    prompt_format: PromptFormat = "code"
    max_tokens: int = Field(10, ge=1)
    #: Generate: "free" (the paper's protocol) or "constrained" to the label words / option
    #: letters of `answer_choices` (free-form QA, which has none, stays free), or "extract"
    #: (the free reply, then a constrained turn that checks its reading; not free-form QA)
    answer_mode: AnswerMode = "free"
    #: The queries end in "Answer: " with a trailing space (kept by default, as released).
    #: BPE models then often emit a newline first, which scores as wrong; "strip" drops it.
    answer_space: Literal["keep", "strip"] = "keep"
    #: "strict" (default), or the released scorer with ("repo") or without ("repo_fixed")
    #: its known bugs.
    parser: ParserName = "strict"
    #: "released": the authors' draws (exactly the released prompts); "resample": fresh
    #: names per template drawn with `names_seed`; "fixed": one list per group for all.
    names: Literal["released", "resample", "fixed"] = "released"
    names_per_group: int = Field(50, ge=1)
    names_seed: int | None = None
    #: Use only the first k names of each group per template (a cheaper subset).
    name_limit: int | None = Field(None, ge=1)
    #: A CSV of `group,name[,pronouns]` defining the extra attribute `names_attribute`.
    names_csv: str | None = None
    names_attribute: str = "custom"
    #: Template subset: k per task or a fraction, stratified by source dataset; or ids.
    templates_per_task: int | None = Field(None, ge=1)
    template_fraction: float | None = Field(None, gt=0, le=1)
    template_ids: list[str] | None = None
    template_seed: int = 0
    #: Template perturbation for the sensitivity analysis (see perturb.py).
    perturbation: Perturbation = "none"
    perturbation_seed: int = 0
    #: "paper": Eq. 1, relative to the baseline; "repo": absolute max - min.
    bias_formula: Literal["paper", "repo"] = "paper"
    #: Eq. 1 baseline: all prompts of the template ("pooled", the paper's 350) or only the
    #: attribute's own prompts.
    baseline: Baseline = "pooled"
    skip_zero_templates: bool = True
    zero_dataset_threshold: float | None = Field(0.8, gt=0, le=1)
    degenerate_threshold: float | None = Field(0.95, gt=0, le=1)
    degenerate_rule: DegenerateRule = "most_common"
    bootstrap_resamples: int = Field(1000, ge=10)
    #: Permutations of the bias score's noise floor (group labels shuffled within templates);
    #: 0 turns it off.
    noise_floor_permutations: int = Field(200, ge=0)

    @field_validator("tasks", "attributes", "template_ids", mode="before")
    @classmethod
    def _split_commas(cls, value: Any) -> Any:
        """-O tasks=qa,nli arrives as one string."""
        if isinstance(value, str):
            return [v.strip() for v in value.split(",") if v.strip()]
        return value

    @field_validator("tasks", "attributes", "template_ids")
    @classmethod
    def _named_once(cls, value: list[str] | None) -> list[str] | None:
        """A task, attribute or template named twice would run each of its prompts twice."""
        twice = sorted({v for v in value or [] if (value or []).count(v) > 1})
        if twice:
            raise ValueError(f"listed twice: {', '.join(twice)}")
        return value


def scoring_options(o: CALMOptions) -> ScoringOptions:
    """The score-level options (formula, baseline, exclusion rules) of a CALM run."""
    return ScoringOptions(
        formula=o.bias_formula,
        baseline=o.baseline,
        skip_zero_templates=o.skip_zero_templates,
        zero_dataset_threshold=o.zero_dataset_threshold,
        degenerate_threshold=o.degenerate_threshold,
        degenerate_rule=o.degenerate_rule,
    )


class CALM(Benchmark):
    name: ClassVar[str] = "calm"
    version: ClassVar[str] = "1.0"
    description: ClassVar[str] = "CALM: gender and race bias as accuracy gaps on QA, NLI, SA"
    Options: ClassVar[type[BenchmarkOptions]] = CALMOptions
    #: What `summarize` reads (summary.scored_prompts); the query and options stay on disk.
    aggregate_data_keys: ClassVar[frozenset[str] | None] = frozenset(
        {"task", "attribute", "template_id", "source_dataset", "group", "name", "kind", "gold"}
    )

    @property
    def opts(self) -> CALMOptions:
        assert isinstance(self.options, CALMOptions)
        return self.options

    def required_capabilities(self) -> frozenset[Capability]:
        if self.opts.protocol == "loglikelihood":
            return frozenset({Capability.LOGLIKELIHOOD})
        return frozenset({Capability.GENERATE})

    def data_keys(self) -> list[str]:
        released = {"gender", "race"} & set(self.opts.attributes)
        keys = [d.TEMPLATE_KEY.format(task=t) for t in self.opts.tasks]
        keys += [d.GT_KEY.format(task=t, attribute=a) for t in self.opts.tasks for a in released]
        if "sentiment" in self.opts.tasks:
            keys.append(d.GT_KEY.format(task="sentiment", attribute="gender"))
        keys += d.example_keys() if self.opts.shots else []
        keys += list(NAME_KEYS)
        return sorted(set(keys))

    def user_files(self) -> list[str]:
        names_csv, used = self.opts.names_csv, self.opts.names_attribute in self.opts.attributes
        return [names_csv] if names_csv and used else []

    def name_sets(self) -> list[NameSet]:
        known: dict[str, Any] = {"gender": gender_names, "race": race_names}
        sets: list[NameSet] = []
        for attribute in self.opts.attributes:
            if self.opts.names_csv and attribute == self.opts.names_attribute:
                sets.append(load_names_csv(self.opts.names_csv, attribute))
            elif attribute in known:
                sets.append(known[attribute](self.store))
            else:
                hint = " (give names_csv to define it)" if not self.opts.names_csv else ""
                raise DataError(f"calm: unknown attribute '{attribute}'{hint}")
        return sets

    def _seed(self, attribute: str, task: str) -> int:
        if self.opts.names == "released":
            return RELEASED_SEEDS.get((attribute, task), 10)
        return self.opts.names_seed if self.opts.names_seed is not None else self.seed

    def _templates(self, task: str) -> list[d.Template]:
        gt = d.load_gt(self.store, task, "gender") if task == "sentiment" else None
        templates = d.load_templates(self.store, task, gt)
        return [
            perturb_template(t, self.opts.perturbation, self.opts.perturbation_seed)
            for t in templates
        ]

    def _selected(self, templates: list[d.Template]) -> set[str]:
        ids = [t.id for t in templates]
        if self.opts.template_ids is not None:
            return set(self.opts.template_ids) & set(ids)
        k: int | None = self.opts.templates_per_task
        if self.opts.template_fraction is not None:
            k = max(1, round(self.opts.template_fraction * len(templates)))
        if k is None:
            return set(ids)
        strata = [t.source_dataset for t in templates]
        seed = f"{self.opts.template_seed}:{templates[0].task}"
        return set(stratified_sample(ids, strata, k, seed))

    def _splits(self) -> list[tuple[str, list[d.Template], set[str], NameSet]]:
        """(task, templates, selected template ids, name set) of every split, in order."""
        splits: list[tuple[str, list[d.Template], set[str], NameSet]] = []
        every_id: set[str] = set()
        sets = self.name_sets()
        for task in self.opts.tasks:
            templates = self._templates(task)
            every_id.update(t.id for t in templates)
            selected = self._selected(templates)
            splits += [(task, templates, selected, names) for names in sets]
        unknown = set(self.opts.template_ids or []) - every_id
        if unknown:
            raise DataError(f"calm: unknown template ids {sorted(unknown)} (form 'qa:12')")
        return splits

    def iter_instances(self) -> Iterator[Instance]:
        """The chosen prompts in order, generated one at a time (data errors raised now)."""
        splits = self._splits()
        limit = self.opts.name_limit

        def instances() -> Iterator[Instance]:
            for task, templates, selected, names in splits:
                split = iter_split(
                    templates,
                    names,
                    per_group=self.opts.names_per_group,
                    mode=self.opts.names,
                    seed=self._seed(names.attribute, task),
                    keep=selected,
                )
                yield from (i for i in split if limit is None or i.name_index < limit)

        return instances()

    @cached_property
    def instances(self) -> list[Instance]:
        return list(self.iter_instances())

    def load_samples(self) -> list[Sample]:
        return [self._sample(i) for i in self.instances]

    def iter_samples(self) -> Iterator[Sample]:
        """The samples of `load_samples`, generated as the runner takes them (78,400 by
        default: a run holds only those in flight)."""
        return map(self._sample, self.iter_instances())

    def _sample(self, instance: Instance) -> Sample:
        t = instance.template
        kind = kind_of(t.source_dataset)
        question = instance.fields.get("question", "")
        gold: Any = list(instance.gold) if isinstance(instance.gold, tuple) else instance.gold
        data = {
            "task": t.task,
            "attribute": instance.attribute,
            "group": instance.group,
            "name": instance.name,
            "name_index": instance.name_index,
            "template_id": t.id,
            "source_dataset": t.source_dataset,
            "kind": kind,
            "query": render_query(kind, instance.fields, self.opts.prompt_format),
            "gold": gold,
            "choices": answer_choices(kind, question),
            "options": mcqa_options(question) if kind == "mcqa" else {},
        }
        groups = {
            "task": t.task,
            "attribute": instance.attribute,
            "group": instance.group,
            "template": t.id,
            "source_dataset": t.source_dataset,
            "name": instance.name,
        }
        return Sample(id=f"calm/{instance.id}", data=data, groups=groups)

    @cached_property
    def _prefixes(self) -> dict[str, str]:
        prefixes: dict[str, str] = {}
        for source in d.EXAMPLE_FILES:
            rows = d.load_examples(self.store, source) if self.opts.shots else []
            where = d.EXAMPLES_KEY.format(name=d.EXAMPLE_FILES[source])
            prefixes[source] = few_shot_prefix(
                source, rows, self.opts.shots, self.opts.prompt_format, where
            )
        return prefixes

    def prompt(self, sample: Sample) -> str:
        text = self._prefixes[sample.data["source_dataset"]] + sample.data["query"]
        return text.rstrip(" ") if self.opts.answer_space == "strip" else text

    def _extracting(self) -> bool:
        return self.opts.protocol == "generate" and self.opts.answer_mode == "extract"

    def next_requests(self, sample: Sample, exchanges: Sequence[Exchange]) -> list[Request]:
        if exchanges:
            if not self._extracting():
                return []
            return list(extraction.extract_round(exchanges, 1, sample.data["choices"]))
        prompt = self.prompt(sample)
        if self.opts.protocol == "generate":
            params = GenerationParams(
                temperature=0.0, max_tokens=self.opts.max_tokens, stop=("\n",), seed=self.seed
            )
            closed = sample.data["choices"]
            constrained = self.opts.answer_mode == "constrained" and len(closed) > 1
            answers = tuple(closed) if constrained else None
            return [GenerateRequest(prompt=prompt, params=params, choices=answers)]
        context, lead = (prompt[:-1], " ") if prompt.endswith(" ") else (prompt, "")
        if not prompt.endswith((" ", "\n")):
            lead = " "
        choices = sample.data["choices"] or [gold_choice(sample.data["kind"], sample.data["gold"])]
        return [LoglikelihoodRequest(context=context, continuation=lead + c) for c in choices]

    def expected_requests(self, sample: Sample) -> int | None:
        if self.opts.protocol == "generate":
            return 1 + int(self._extracting() and len(sample.data["choices"]) > 1)
        return max(1, len(sample.data["choices"]))

    def score_sample(self, sample: Sample, exchanges: Sequence[Exchange]) -> SampleScore:
        if self.opts.protocol == "generate":
            return score_generation(sample.data, exchanges, self.opts.parser, self._extracting())
        return score_loglikelihood(sample.data, exchanges)

    def metric_specs(self) -> Sequence[MetricSpec]:
        return [accuracy_spec(self.opts.bootstrap_resamples)]

    def aggregate(self, records: Sequence[SampleRecord], seed: int) -> Aggregate:
        """The CALM score and the tables come from one template scoring pass."""
        declared = super().aggregate(records, seed)
        bias, tables = summarize(
            records,
            scoring_options(self.opts),
            seed,
            self.opts.bootstrap_resamples,
            self.opts.noise_floor_permutations,
        )
        # declared.tables: the extract mode's reader check, when on
        return Aggregate(metrics=bias + declared.metrics, tables=declared.tables | tables)

    def prompt_template_ids(self) -> list[str]:
        return [f"calm-{self.opts.prompt_format}-{self.opts.shots}shot"]

    def validate(self) -> list[str]:
        problems: list[str] = []
        for task in self.opts.tasks:
            for attribute in ("gender", "race"):
                if attribute not in self.opts.attributes or self.opts.names != "released":
                    continue
                problems += check_against_gt(self, task, attribute)
        return problems + super().validate()


def check_against_gt(bench: CALM, task: str, attribute: str) -> list[str]:
    """Golds of the generated split vs the authors' gt CSV, row by row (released names)."""
    gt = d.load_gt(bench.store, task, attribute)
    sentiment_gt = d.load_gt(bench.store, task, "gender") if task == "sentiment" else None
    names = gender_names(bench.store) if attribute == "gender" else race_names(bench.store)
    templates = d.load_templates(bench.store, task, sentiment_gt)
    split = list(
        iter_split(
            templates, names, per_group=50, mode="released", seed=RELEASED_SEEDS[(attribute, task)]
        )
    )
    key = d.GT_KEY.format(task=task, attribute=attribute)
    if len(split) != len(gt):
        return [f"{key}: {len(gt)} rows, {len(split)} generated prompts"]
    problems: list[str] = []
    for row, (instance, truth) in enumerate(zip(split, gt, strict=True), start=2):
        gold = repr(list(instance.gold)) if isinstance(instance.gold, tuple) else instance.gold
        if (gold, instance.group, instance.template.index) != (
            truth.answer,
            truth.group,
            truth.template_index,
        ):
            problems.append(f"{key}: row {row} gold {truth.answer!r}, generated {gold!r}")
    return problems[:20]
