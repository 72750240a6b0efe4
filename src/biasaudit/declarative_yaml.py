"""Declarative multiple-choice tasks written in YAML (lm-evaluation-harness style).

A spec whose `benchmark` names a YAML file in a package (``benchmark="mypkg:task.yaml"``) gets
its class built from that file: no Python but the spec. The file holds the fields of
`MultipleChoiceTask` plus the benchmark's name and version, and either a `table` (the column
mapping of `table_reader`, for JSON-lines or CSV data) or a `reader` ("module:function" of a
reader written in Python)::

    name: toy_yaml
    version: "1.0"
    data_keys: [toy_yaml/items.jsonl]
    table: {options: [options], gold: label, stereotyped: stereotyped, fields: [sentence],
            groups: [gender]}
    template: "{sentence}"
    group_by: [gender]
    contrast: [gender, female, male]

Every mistake in the file (unknown key, wrong type, both or neither of table / reader) is one
`DataError` naming the file and the field.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from biasaudit.declarative import (
    MultipleChoiceBenchmark,
    MultipleChoiceTask,
    Reader,
    table_reader,
)
from biasaudit.errors import DataError
from biasaudit.importing import import_object, read_resource


class TableColumns(BaseModel):
    model_config = ConfigDict(extra="forbid")

    options: list[str] = Field(min_length=1)
    gold: str
    stereotyped: str | None = None
    fields: list[str] = Field(default_factory=list)
    groups: list[str] = Field(default_factory=list)
    id_column: str | None = None


class YamlTask(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    version: str
    description: str = ""
    data_keys: list[str]
    table: TableColumns | None = None
    reader: str | None = None
    template: str
    option_template: str = " {option}"
    group_by: list[str] = Field(default_factory=list)
    cluster_by: str | None = None
    contrast: tuple[str, str, str] | None = None
    normalisation: Literal["sum", "per_token", "per_char"] = "per_char"
    reference: str = ""

    def read(self) -> Reader:
        if self.table is not None:
            return table_reader(**self.table.model_dump())
        reader: Reader = import_object(self.reader or "")
        return reader


@cache
def yaml_benchmark(ref: str) -> type[MultipleChoiceBenchmark]:
    """The benchmark class declared by the YAML resource ``"package:file.yaml"``."""
    import yaml

    try:
        raw = yaml.safe_load(read_resource(ref))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise DataError(f"{ref}: not valid YAML ({problem}{where})") from None
    try:
        task = YamlTask.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(file)"
        raise DataError(f"{ref}: {where}: {first['msg']}") from None
    if (task.table is None) == (task.reader is None):
        raise DataError(f"{ref}: give exactly one of 'table' and 'reader'")
    declared = MultipleChoiceTask(
        data_keys=task.data_keys,
        read=task.read(),
        template=task.template,
        option_template=task.option_template,
        group_by=task.group_by,
        cluster_by=task.cluster_by,
        contrast=task.contrast,
        normalisation=task.normalisation,
        reference=task.reference,
    )
    attributes = {
        "name": task.name,
        "version": task.version,
        "description": task.description,
        "task": declared,
        "__module__": ref.partition(":")[0],
    }
    return type(task.name, (MultipleChoiceBenchmark,), attributes)
