"""A declarative task written in YAML: a plug-in with no Python but its spec passes the whole
conformance kit, and mistakes in the file are one line naming the file and the field."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from biasaudit import plugin
from biasaudit.errors import DataError
from biasaudit.testing import CHECKS, check_benchmark
from plugin_packages import on_path, write_package

SPEC = """
from biasaudit.benchmarks import BenchmarkSpec

SPEC = BenchmarkSpec(
    name="yamltoy",
    title="A YAML multiple-choice task",
    citation="written for the YAML test",
    benchmark="yamltoy:task.yaml",
    sources="yamltoy:sources.json",
    docs="yamltoy:README.md",
)
"""

TASK = """
name: yamltoy
version: "1.0"
data_keys: [yamltoy/items.jsonl]
table: {options: [options], gold: label, stereotyped: stereo, fields: [sentence], groups: [g]}
template: "{sentence}"
group_by: [g]
contrast: [g, f, m]
"""

ROWS = [
    {"sentence": f"Person {i} said that", "options": ["he left", "she left"], "label": i % 2,
     "stereo": (i + 1) % 2, "g": "fm"[i % 2]}
    for i in range(8)
]  # fmt: skip


def _install(root: Path, task: str) -> Path:
    data = "".join(json.dumps(r) + "\n" for r in ROWS).encode()
    mirror = root / "mirror"
    (mirror / "yamltoy").mkdir(parents=True)
    (mirror / "yamltoy" / "items.jsonl").write_bytes(data)
    pins = {"yamltoy/items.jsonl": {"url": None, "sha256": hashlib.sha256(data).hexdigest(),
                                    "license": "CC0-1.0", "citation": "toy"}}  # fmt: skip
    files = {"__init__.py": SPEC, "task.yaml": task, "sources.json": json.dumps(pins),
             "README.md": "# YAML toy\n"}  # fmt: skip
    write_package(root / "site", "yamltoy", files, {"yamltoy": "yamltoy"})
    return mirror


def test_a_yaml_task_passes_the_conformance_kit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mirror = _install(tmp_path, TASK)
    with on_path(tmp_path / "site", monkeypatch, "yamltoy"):
        assert check_benchmark("yamltoy", data_dir=mirror, limit=8) == list(CHECKS)
        bench = plugin.benchmark_class("yamltoy")
        metrics = [spec.name for spec in bench.metrics]
        assert (bench.name, bench.version, metrics) == (
            "yamltoy", "1.0", ["accuracy", "stereotype_preference"]
        )  # fmt: skip


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("template: x\ntemplat: y", r"task.yaml: templat: Extra inputs are not permitted"),
        ("reader: yamltoy.x:read", r"task.yaml: give exactly one of 'table' and 'reader'"),
        ("contrast: [g, f]", r"task.yaml: contrast.2: Field required"),
        ("template: [unclosed", r"task.yaml: not valid YAML \(.* at line 9\)"),
    ],
)
def test_mistakes_in_the_yaml_are_one_line(
    change: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from biasaudit.declarative_yaml import yaml_benchmark

    key = change.split(":")[0]
    kept = [x for x in TASK.splitlines() if not x.startswith(f"{key}:")]
    task = "\n".join([*kept, change]) + "\n"
    _install(tmp_path, task)
    yaml_benchmark.cache_clear()
    with on_path(tmp_path / "site", monkeypatch, "yamltoy"), pytest.raises(DataError) as caught:
        plugin.benchmark_class("yamltoy")
    yaml_benchmark.cache_clear()
    assert "\n" not in str(caught.value)
    assert caught.match(message)
