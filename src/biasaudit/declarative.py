"""Declarative multiple-choice benchmarks: pick the likeliest of k continuations.

Most bias benchmarks have one shape: an item (a sentence, a question) rendered by a prompt
template, k options, the correct option and, often, the stereotyped one, and demographic
columns to break results down by. A `MultipleChoiceTask` declares that shape; subclassing
`MultipleChoiceBenchmark` with ``task = ...`` gives a complete benchmark:

- requests: one log-likelihood request per option, ``log P(option | prompt)``;
- scoring (``-O normalisation=...``): the option with the highest summed log-likelihood
  (``sum``), per token (``per_token``: divided by the backend's token count), or per character
  of the continuation (``per_char``, lm-evaluation-harness's ``acc_norm``), chosen by
  `biasaudit.likeliest`: an exact tie is no choice (excluded, outcome ``unparsed``, reason
  ``options tie``); a failed request is an ``error`` exclusion;
- metrics: ``accuracy`` (the gold option chosen), ``stereotype_preference`` (the stereotyped
  option chosen; when the task names one), and the signed contrast of accuracy between two
  levels of a column (``accuracy_<a>_minus_<b>``, e.g. pro minus anti), each with bootstrap CIs
  (resampling the task's clusters) and a breakdown by every declared column.

A task whose data is a JSON-lines or CSV table needs no reader of its own: `table_reader`
maps columns to the options, the gold and stereotyped option, the template fields and the
groups. The same declaration can be a YAML file in the package (`biasaudit.declarative_yaml`).
Scoring is by log-likelihood only: constrained generation (`GenerateRequest.choices`, the
`answer_mode=constrained` of the generative benchmarks) is not offered in this layer. The
signed contrast is computed here (a `StatisticSpec` over the difference of two group
means), not through `MetricSpec.contrasts`, which landed after this layer was written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from pydantic import Field

from biasaudit.contract import Benchmark, BenchmarkOptions, Sample, SampleScore
from biasaudit.datasets.files import check_row_width, iter_json_lines, read_csv
from biasaudit.errors import BiasauditError, DataError
from biasaudit.likeliest import TIE_REASON, Normalisation, likeliest, option_score
from biasaudit.metrics.frame import MetricSpec, StatisticSpec, frame
from biasaudit.requests import Capability, LoglikelihoodRequest, Request
from biasaudit.results.schema import Exchange, MetricValue, SampleRecord


@dataclass(frozen=True)
class Item:
    """One multiple-choice item, as a task's reader yields it."""

    id: str
    #: Values for the prompt template's ``{fields}``.
    fields: dict[str, str]
    options: list[str]
    gold: int
    stereotyped: int | None = None
    #: Demographic and design columns (breakdowns, clusters): name -> level.
    groups: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class MultipleChoiceTask:
    """The declaration of a multiple-choice benchmark (see the module docstring)."""

    #: Pinned data keys the reader gets, as ``{key: local path}``.
    data_keys: list[str]
    read: Callable[[Mapping[str, Path]], Iterable[Item]]
    #: ``str.format`` template of the context, over `Item.fields`.
    template: str
    #: Template of each option's continuation, over ``{option}``.
    option_template: str = " {option}"
    #: Group columns each metric is broken down by ("a+b" combines two).
    group_by: list[str] = field(default_factory=list)
    #: Group column whose levels are resampled together (e.g. a sentence pair).
    cluster_by: str | None = None
    #: (column, a, b): the signed accuracy contrast a - b.
    contrast: tuple[str, str, str] | None = None
    normalisation: Normalisation = "per_char"
    reference: str = ""


class MultipleChoiceOptions(BenchmarkOptions):
    normalisation: Normalisation | None = Field(
        None,
        description="sum, per_token or per_char log-likelihood of each option "
        "(default: the task's)",
    )
    where: dict[str, list[str]] = Field(
        default_factory=dict,
        description='keep only items whose columns have these levels, e.g. {"split": ["test"]}',
    )


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


class MultipleChoiceBenchmark(Benchmark):
    """A benchmark built from its class attribute `task` (a `MultipleChoiceTask`)."""

    task: ClassVar[MultipleChoiceTask]
    Options = MultipleChoiceOptions
    options: MultipleChoiceOptions

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        task = cls.__dict__.get("task")
        if task is not None and "metrics" not in cls.__dict__:
            cls.metrics = _metric_specs(task)

    @property
    def normalisation(self) -> Normalisation:
        return self.options.normalisation or self.task.normalisation

    def required_capabilities(self) -> frozenset[Capability]:
        return frozenset({Capability.LOGLIKELIHOOD})

    def data_keys(self) -> list[str]:
        return list(self.task.data_keys)

    def prompt_template_ids(self) -> list[str]:
        return [f"{self.name}-mc-{self.normalisation}"]

    def load_samples(self) -> list[Sample]:
        paths = {key: self.store.path(key) for key in self.task.data_keys}
        samples = []
        where = self.options.where
        seen: dict[str, set[str]] = {column: set() for column in where}
        for item in self.task.read(paths):
            missing = sorted(set(where) - set(item.groups))
            if missing:
                known = ", ".join(sorted(item.groups))
                raise BiasauditError(
                    f"{self.name}: option where: no column {missing[0]!r} (columns: {known})"
                )
            for column in where:
                seen[column].add(item.groups[column])
            if all(item.groups[k] in levels for k, levels in where.items()):
                data = {"context": self._render(item), "gold": item.gold}
                data["options"] = [self.task.option_template.format(option=o) for o in item.options]
                data["stereotyped"] = item.stereotyped
                samples.append(Sample(item.id, data, dict(item.groups)))
        for column, levels in where.items():
            unknown = sorted(set(levels) - seen[column])
            if unknown:
                raise BiasauditError(
                    f"{self.name}: option where: {column} has no level {unknown[0]!r} "
                    f"(levels: {', '.join(sorted(seen[column]))})"
                )
        return samples

    def _render(self, item: Item) -> str:
        try:
            return self.task.template.format(**item.fields)
        except (KeyError, IndexError, ValueError) as exc:
            raise BiasauditError(
                f"{self.name}: item {item.id}: the template needs {exc} (fields: "
                f"{', '.join(sorted(item.fields))})"
            ) from None

    def next_requests(self, sample: Sample, exchanges: Sequence[Exchange]) -> list[Request]:
        if exchanges:
            return []
        context = sample.data["context"]
        return [
            LoglikelihoodRequest(context=context, continuation=o) for o in sample.data["options"]
        ]

    def expected_requests(self, sample: Sample) -> int:
        return len(sample.data["options"])

    def score_sample(self, sample: Sample, exchanges: Sequence[Exchange]) -> SampleScore:
        failed = [e.response.error for e in exchanges if not e.response.ok]
        if failed:
            return SampleScore(["error"], {}, True, f"request failed: {failed[0]}")
        if len(exchanges) != len(sample.data["options"]):
            return SampleScore(["error"], {}, True, "not every option was scored")
        values = []
        for option, exchange in zip(sample.data["options"], exchanges, strict=True):
            r = exchange.response
            value = option_score(r.logprob, r.n_tokens, option, self.normalisation)
            if value is None:
                return SampleScore(["error"], {}, True, "no log-likelihood or token count")
            values.append(value)
        chosen = likeliest(values)  # ties abstain (biasaudit.likeliest)
        if chosen is None:
            return SampleScore(["unparsed"], {"scores": values}, True, TIE_REASON)
        scores: dict[str, Any] = {"chosen": chosen, "scores": values}
        scores["correct"] = float(chosen == sample.data["gold"])
        if sample.data["stereotyped"] is not None:
            scores["stereotyped"] = float(chosen == sample.data["stereotyped"])
        return SampleScore(["answered"], scores)

    def extra_metrics(self, records: Sequence[SampleRecord], seed: int) -> list[MetricValue]:
        if self.task.contrast is None:
            return []
        column, a, b = self.task.contrast
        correct = [r.scores.get("correct") if not r.excluded else None for r in records]
        level = [r.groups.get(column) for r in records]

        def contrast(indices: Sequence[int]) -> float | None:
            """mean(correct | column = a) - mean(correct | column = b); None if one is empty."""
            on_a = [c for i in indices if level[i] == a and (c := correct[i]) is not None]
            on_b = [c for i in indices if level[i] == b and (c := correct[i]) is not None]
            mean_a, mean_b = _mean(on_a), _mean(on_b)
            return None if mean_a is None or mean_b is None else mean_a - mean_b

        return [
            frame(
                records,
                StatisticSpec(
                    f"accuracy_{a}_minus_{b}",
                    contrast,
                    statistic_name="difference of means",
                    group_by=[g for g in self.task.group_by if column not in g.split("+")],
                    cluster_by=self.task.cluster_by,
                    description=f"accuracy on {column}={a} minus accuracy on {column}={b} (signed)",
                    reference=self.task.reference,
                    n_excluded=sum(c is None for c in correct),
                    group_ci=True,
                ),
                seed,
            )
        ]


Reader = Callable[[Mapping[str, Path]], Iterator[Item]]


def _rows(key: str, path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    if path.suffix == ".csv":
        header, rows = read_csv(path)
        for line, row in rows:
            check_row_width(key, line, row, header)
            yield line, row
        return
    for line, value in iter_json_lines(path):
        if not isinstance(value, dict):
            raise DataError(f"{key}, line {line}: expected a JSON object")
        yield line, value


def _integer(value: Any) -> int | None:
    """`value` as an integer: an int (not a bool), a float with no fraction, or an int's text.
    Anything else (``true``, ``1.5``, ``1e400``, ``"1.0"``) is None, not truncated."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    if isinstance(value, int):
        return value
    try:
        return int(value) if isinstance(value, str) else None
    except ValueError:
        return None


def _option_index(key: str, line: int, column: str, value: Any, options: list[str]) -> int:
    """A 0-based index, or the text of one of the options."""
    if isinstance(value, str) and value in options:
        return options.index(value)
    index = _integer(value)
    if index is None or not 0 <= index < len(options):
        raise DataError(
            f"{key}, line {line}: {column} {value!r} is neither an option nor its index"
        )
    return index


def table_reader(
    *,
    options: Sequence[str],
    gold: str,
    stereotyped: str | None = None,
    fields: Sequence[str] = (),
    groups: Sequence[str] = (),
    id_column: str | None = None,
) -> Reader:
    """A reader of JSON-lines or CSV files (``.csv``): one item per row.

    `options`: the columns holding the k options, or one column holding a list of them;
    `gold` / `stereotyped`: columns holding an option's 0-based index or its text; `fields`:
    the columns the template uses; `groups`: the demographic and design columns; `id_column`:
    the item id (default ``<file name>-<line>``). Every missing or bad value is a `DataError`
    naming the file, the line and the column.
    """

    def read(paths: Mapping[str, Path]) -> Iterator[Item]:
        for key, path in paths.items():
            for line, row in _rows(key, path):
                wanted = [*options, gold, *fields, *groups]
                wanted += [c for c in (stereotyped, id_column) if c]
                missing = [c for c in wanted if row.get(c) in (None, "")]
                if missing:
                    raise DataError(f"{key}, line {line}: no value in column {missing[0]!r}")
                texts = row[options[0]] if len(options) == 1 else [row[c] for c in options]
                if not isinstance(texts, list) or len(texts) < 2:
                    raise DataError(f"{key}, line {line}: {options[0]!r} is not a list of options")
                empty = [i for i, t in enumerate(texts, start=1) if t in (None, "")]
                if empty:
                    raise DataError(
                        f"{key}, line {line}: option {empty[0]} of {options[0]!r} is empty"
                    )
                texts = [str(t) for t in texts]
                yield Item(
                    str(row[id_column]) if id_column else f"{Path(key).name}-{line}",
                    {c: str(row[c]) for c in fields},
                    texts,
                    _option_index(key, line, gold, row[gold], texts),
                    _option_index(key, line, stereotyped, row[stereotyped], texts)
                    if stereotyped
                    else None,
                    {c: str(row[c]) for c in groups},
                )

    return read


def _metric_specs(task: MultipleChoiceTask) -> list[MetricSpec]:
    common: dict[str, Any] = {
        "group_by": list(task.group_by),
        "cluster_by": task.cluster_by,
        "noise_floor": True,
        "reference": task.reference,
    }
    specs = [
        MetricSpec(
            name="accuracy",
            score="correct",
            higher_is_better=True,
            description="share of items whose likeliest option is the correct one",
            **common,
        )
    ]
    specs.append(
        MetricSpec(
            name="stereotype_preference",
            score="stereotyped",
            description="share of items whose likeliest option is the stereotyped one",
            **common,
        )
    )
    return specs


__all__ = [
    "Item",
    "MultipleChoiceBenchmark",
    "MultipleChoiceOptions",
    "MultipleChoiceTask",
    "Normalisation",
    "table_reader",
]
