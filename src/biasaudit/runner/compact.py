"""The per-sample table a streamed run keeps in memory: records without their exchanges.

Once a sample's full record is written to samples.jsonl, the run keeps only what scoring the
run needs: `Benchmark.aggregate` reads a record's groups, data, outcomes, scores and
exclusion (never its exchanges: the contract in benchmarks/base.py), and the run status
(`results.status.judge`) reads the first failed response of an excluded sample. So a compact
record keeps everything but the exchanges, and of those only the first failed one; of the
sample's data, what the benchmark declares its aggregate reads (`aggregate_data_keys`).

Repeated short strings (group labels, template ids, names, outcomes) are shared through an
`Interner`, so a table of 30,000 CALM samples costs a few MiB more than one of 7,000, not
their prompts and responses.
"""

from __future__ import annotations

import pickle
from typing import Any

from biasaudit.benchmarks.base import Benchmark
from biasaudit.results.schema import Exchange, SampleRecord

#: Strings up to this length are shared between records (labels, ids, short answers).
MAX_SHARED_CHARS = 64


class Interner:
    """Maps equal short strings to one object for the lifetime of one run."""

    def __init__(self) -> None:
        self._strings: dict[str, str] = {}
        self._field_sets: dict[frozenset[str], set[str]] = {}
        self._outcomes: dict[tuple[str, ...], list[str]] = {}

    def outcomes(self, values: list[str]) -> list[str]:
        """One shared list per distinct outcome list (aggregates read records, never edit)."""
        return self._outcomes.setdefault(tuple(values), [self(v) for v in values])

    def field_set(self, names: set[str]) -> set[str]:
        """One shared set per distinct set of explicitly given field names."""
        return self._field_sets.setdefault(frozenset(names), set(names))

    def __call__(self, value: Any) -> Any:
        """`value` with its short strings (also inside lists and dicts) shared."""
        if isinstance(value, str):
            if len(value) > MAX_SHARED_CHARS:
                return value
            return self._strings.setdefault(value, value)
        if isinstance(value, dict):
            return {self(k): self(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self(v) for v in value]
        return value


def kept_data_keys(benchmark: Benchmark) -> frozenset[str] | None:
    """The `Sample.data` keys a compact record keeps: what the benchmark's aggregate reads
    (`Benchmark.aggregate_data_keys`) and what its declared metrics group by; None: all."""
    declared = benchmark.aggregate_data_keys
    if declared is None:
        return None
    used: set[str] = set(declared)
    for spec in benchmark.metric_specs():
        keys = [*spec.group_by, spec.cluster_by, spec.stratify_by, spec.permute_within]
        for key in [*keys, *spec.where]:
            used.update(key.split("+") if key else [])
    return frozenset(used)


class CompactTable:
    """The compact records of one benchmark's run, kept as one pickled row per sample while
    the run goes on and rebuilt as `SampleRecord`s once, when it is over (`records`).

    Pickled rows, not live records: a few hundred bytes each, and no long-lived small
    objects scattered among the run's short-lived ones (prompts, requests, responses), which
    would keep the allocator's pages from being reused. Pickle keeps every value exactly as
    scored (tuples, infinities), so `aggregate` sees what it would see on the full records;
    the rows never leave this process.
    """

    def __init__(self, data_keys: frozenset[str] | None = None) -> None:
        self.data_keys = data_keys
        self._rows: list[bytes] = []

    def __len__(self) -> int:
        return len(self._rows)

    def add(self, record: SampleRecord) -> None:
        """Keep `record` without its exchanges (but the first failed one) and without the
        data keys not in `data_keys`."""
        failed = next((e for e in record.exchanges if not e.response.ok), None)
        data = record.data
        if self.data_keys is not None:
            data = {k: v for k, v in data.items() if k in self.data_keys}
        row = (
            tuple(sorted(record.model_fields_set)),
            record.benchmark,
            record.sample_id,
            record.sample_hash,
            record.groups,
            data,
            failed,
            record.outcomes,
            record.scores,
            record.excluded,
            record.exclusion_reason,
        )
        self._rows.append(pickle.dumps(row, protocol=pickle.HIGHEST_PROTOCOL))

    def records(self) -> list[SampleRecord]:
        """All kept records, in the order added; the rows are released as they are read."""
        shared = Interner()
        out: list[SampleRecord] = []
        no_exchanges: list[Exchange] = []  # one list for all: aggregates only read records
        rows, self._rows = self._rows, []
        for index, raw in enumerate(rows):
            rows[index] = b""
            fields, bench, sample_id, sample_hash, groups, data, failed, *rest = pickle.loads(raw)
            outcomes, scores, excluded, reason = rest
            out.append(
                SampleRecord.model_construct(
                    shared.field_set(set(fields)),
                    benchmark=shared(bench),
                    sample_id=sample_id,
                    sample_hash=sample_hash,
                    groups=shared(groups),
                    data=shared(data),
                    exchanges=[failed] if failed is not None else no_exchanges,
                    outcomes=shared.outcomes(outcomes),
                    scores=shared(scores),
                    excluded=excluded,
                    exclusion_reason=shared(reason),
                )
            )
        return out
