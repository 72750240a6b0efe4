"""The per-sample table a streamed run keeps in memory: records without their exchanges.

Once a sample's full record is written to samples.jsonl, the run keeps only what scoring the
run needs: `Benchmark.aggregate` reads a record's groups, data, outcomes, scores and
exclusion (never its exchanges: the contract in biasaudit/contract.py), and the run status
(`results.status.judge`) reads the first failed response of an excluded sample. So a compact
record keeps everything but the exchanges, and of those only the first failed one; of the
sample's data, what the benchmark declares its aggregate reads (`aggregate_data_keys`).

Each kept record is one pickled row, and the row holds no short string: every string of up
to `MAX_SHARED_CHARS` characters (group labels, template ids, names, outcomes, dict keys) is
stored once per run in a `StringTable` and pickled as its number (pickle's persistent ids),
so a CALM row is ~250 bytes and the records rebuilt from the rows share those strings.
"""

from __future__ import annotations

import io
import pickle
from array import array
from collections.abc import Iterator, Sequence
from typing import Any, overload

from biasaudit.contract import Benchmark
from biasaudit.results.schema import Exchange, SampleRecord

#: Strings up to this length are shared between records (labels, ids, short answers).
MAX_SHARED_CHARS = 64


class StringTable:
    """Short strings stored once for one run, numbered in the order first seen."""

    def __init__(self) -> None:
        self.strings: list[str] = []
        self._numbers: dict[str, int] = {}

    def number(self, value: str) -> int:
        found = self._numbers.get(value)
        if found is None:
            found = self._numbers[value] = len(self.strings)
            self.strings.append(value)
        return found


class _Pickler(pickle.Pickler):
    """Pickles short strings as their number in a `StringTable` (a persistent id)."""

    def __init__(self, file: io.BytesIO, table: StringTable) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.table = table

    def persistent_id(self, obj: Any) -> int | None:
        if type(obj) is str and len(obj) <= MAX_SHARED_CHARS:
            return self.table.number(obj)
        return None


class Interner:
    """One object per distinct field set and outcome list, for the lifetime of one run."""

    def __init__(self) -> None:
        self._field_sets: dict[tuple[str, ...], set[str]] = {}
        self._outcomes: dict[tuple[str, ...], list[str]] = {}

    def outcomes(self, values: list[str]) -> list[str]:
        """One shared list per distinct outcome list (aggregates read records, never edit)."""
        return self._outcomes.setdefault(tuple(values), values)

    def field_set(self, names: tuple[str, ...]) -> set[str]:
        """One shared set per distinct set of explicitly given field names."""
        return self._field_sets.setdefault(names, set(names))


def _packed_hash(sample_hash: str) -> bytes | str:
    """A hex sha256 as its 32 bytes when that is exact, else the string itself."""
    try:
        packed = bytes.fromhex(sample_hash)
    except ValueError:
        return sample_hash
    return packed if packed.hex() == sample_hash else sample_hash


def kept_data_keys(benchmark: Benchmark) -> frozenset[str] | None:
    """The `Sample.data` keys a compact record keeps: what the benchmark's aggregate reads
    (`Benchmark.aggregate_data_keys`) and what its declared metrics group by; None: all."""
    declared = benchmark.aggregate_data_keys
    if declared is None:
        return None
    used: set[str] = set(declared)
    for spec in benchmark.metric_specs():
        for key in [*spec.keys(), *spec.where]:
            used.update(key.split("+"))
    return frozenset(used)


class Rows:
    """Byte strings stored end to end in one buffer: no object per row (a row is read back
    as a view), and nothing long-lived among the run's many short-lived small objects,
    which would keep the allocator's pages from being reused."""

    def __init__(self) -> None:
        self._data = bytearray()
        self._ends = array("Q")

    def __len__(self) -> int:
        return len(self._ends)

    def append(self, row: bytes | memoryview) -> None:
        self._data += row
        self._ends.append(len(self._data))

    def __getitem__(self, index: int) -> memoryview:
        start = self._ends[index - 1] if index > 0 else 0
        return memoryview(self._data)[start : self._ends[index]]

    def __iter__(self) -> Iterator[memoryview]:
        view, start = memoryview(self._data), 0
        for end in self._ends:
            yield view[start:end]
            start = end


class CompactTable:
    """The compact records of one benchmark's run, kept as one pickled row per sample while
    the run goes on and rebuilt as `SampleRecord`s each time they are read, when it is over
    (`records`).

    Pickled rows, not live records: a few hundred bytes each, in one buffer (`Rows`). Pickle
    keeps every value exactly as scored (tuples, infinities), so `aggregate` sees what it
    would see on the full records; the rows never leave this process.
    """

    def __init__(self, data_keys: frozenset[str] | None = None) -> None:
        self.data_keys = data_keys
        self._rows = Rows()
        self._strings = StringTable()
        self._buffer = io.BytesIO()
        self._pickler = _Pickler(self._buffer, self._strings)

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
            record.sample_id.encode(),  # bytes: unique per sample, never in the string table
            _packed_hash(record.sample_hash),
            record.groups,
            data,
            failed,
            record.outcomes,
            record.scores,
            record.excluded,
            record.exclusion_reason,
        )
        self._buffer.seek(0)
        self._buffer.truncate()
        self._pickler.clear_memo()
        self._pickler.dump(row)
        with self._buffer.getbuffer() as pickled:
            self._rows.append(pickled)

    def records(self) -> CompactRecords:
        """All kept records, in the order added, as a lazy sequence (the table is handed
        over: adding to it afterwards starts a new, empty one)."""
        rows, strings = self._rows, self._strings
        self._rows, self._strings = Rows(), StringTable()
        self._pickler = _Pickler(self._buffer, self._strings)
        return CompactRecords(rows, strings.strings)


class LazyRecords(Sequence[SampleRecord]):
    """A sequence of records built when they are read (`_at`)."""

    @overload
    def __getitem__(self, index: int) -> SampleRecord: ...

    @overload
    def __getitem__(self, index: slice) -> list[SampleRecord]: ...

    def __getitem__(self, index: int | slice) -> SampleRecord | list[SampleRecord]:
        if isinstance(index, slice):
            return [self._at(i) for i in range(len(self))[index]]
        position = index + len(self) if index < 0 else index
        if not 0 <= position < len(self):
            raise IndexError("record index out of range")
        return self._at(position)

    def _at(self, index: int) -> SampleRecord:
        raise NotImplementedError


class CompactRecords(LazyRecords):
    """The records of a `CompactTable`, built from its pickled rows each time they are read.

    Nothing per record is kept between reads but the row, so `aggregate` (which reads the
    records a few times, each time taking what it needs as columns: `metrics/frame.py`)
    never holds all records at once. The records' short strings are the table's, shared by
    every record built, so what a reader keeps of them (labels, ids) is not copied per
    record. Indexing builds one record: read the sequence by iterating it, not by index in
    a loop.
    """

    def __init__(self, rows: Rows, strings: list[str]) -> None:
        self._rows = rows
        self._strings = strings
        self._shared = Interner()
        self._no_exchanges: list[Exchange] = []  # one list for all: aggregates only read

    def __len__(self) -> int:
        return len(self._rows)

    def _at(self, index: int) -> SampleRecord:
        return self._record(self._rows[index])

    def __iter__(self) -> Iterator[SampleRecord]:
        return map(self._record, self._rows)

    def _record(self, raw: memoryview) -> SampleRecord:
        unpickler = pickle.Unpickler(io.BytesIO(raw))
        unpickler.persistent_load = self._strings.__getitem__  # type: ignore[method-assign]
        fields, bench, sample_id, sample_hash, groups, data, failed, *rest = unpickler.load()
        outcomes, scores, excluded, reason = rest
        return SampleRecord.model_construct(
            self._shared.field_set(fields),
            benchmark=bench,
            sample_id=sample_id.decode(),
            sample_hash=sample_hash.hex() if isinstance(sample_hash, bytes) else sample_hash,
            groups=groups,
            data=data,
            exchanges=[failed] if failed is not None else self._no_exchanges,
            outcomes=self._shared.outcomes(outcomes),
            scores=scores,
            excluded=excluded,
            exclusion_reason=reason,
        )


class ChainedRecords(LazyRecords):
    """Several benchmarks' records read as one sequence, without building them all."""

    def __init__(self, parts: Sequence[Sequence[SampleRecord]]) -> None:
        self._parts = list(parts)

    def __len__(self) -> int:
        return sum(len(part) for part in self._parts)

    def _at(self, index: int) -> SampleRecord:
        for part in self._parts:
            if index < len(part):
                return part[index]
            index -= len(part)
        raise IndexError("record index out of range")

    def __iter__(self) -> Iterator[SampleRecord]:
        for part in self._parts:
            yield from part
