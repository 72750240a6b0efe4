"""docs/adding-a-benchmark.md is runnable: its `# file:` blocks are written into a package,
installed through the entry points of its pyproject.toml block, and its `# run` blocks are
executed (they run the whole conformance kit on the two benchmarks the page builds)."""

from __future__ import annotations

import json
import re
import sys
import tomllib
from pathlib import Path

import pytest

from biasaudit.cli.app import main
from plugin_packages import on_path

DOC = Path(__file__).resolve().parents[3] / "docs" / "adding-a-benchmark.md"
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def _blocks(kind: str) -> list[str]:
    return [body for lang, body in BLOCK.findall(DOC.read_text()) if lang == kind]


@pytest.fixture
def doc_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    files = {}
    for body in _blocks("python") + _blocks("yaml"):
        first, _, rest = body.partition("\n")
        if first.startswith("# file: "):
            files[first.removeprefix("# file: ").strip()] = rest
    expected = {"__init__.py", "benchmark.py", "choice.py", "task.yaml", "analyses.py"}
    assert {f"toybench/{name}" for name in expected} <= set(files)
    for relative, text in files.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text)
    (tmp_path / "toybench/README.md").write_text("# Toy\n\nThe toy of adding-a-benchmark.md.\n")
    (tmp_path / "toybench/sources.json").write_text("{}")
    (toml,) = _blocks("toml")
    project = tomllib.loads(toml)
    points = project["project"]["entry-points"]["biasaudit.benchmarks"]
    dist = tmp_path / "toybench-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: toybench\nVersion: 1.0\n")
    lines = "".join(f"{name} = {ref}\n" for name, ref in points.items())
    (dist / "entry_points.txt").write_text(f"[biasaudit.benchmarks]\n{lines}")
    return tmp_path


def test_the_pages_snippets_run(
    doc_package: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = [b for b in _blocks("python") if b.startswith("# run")]
    assert runs
    with on_path(doc_package, monkeypatch, "toybench", "toybench_tests"):
        for body in runs:
            exec(compile(body, f"{DOC.name} (# run block)", "exec"), {})
        assert main(["list", "benchmarks", "--json"]) == 0
        listed = {item["name"] for item in json.loads(capsys.readouterr().out)}
        assert {"toy", "toy_choice", "toy_yaml"} <= listed
        assert capsys.readouterr().err == ""  # no plug-in was skipped
        assert main(["toy", "count", "--expected", "12"]) == 0
        assert main(["list", "options", "toy"]) == 0
        assert "how many numbers to ask about" in capsys.readouterr().out
        import toybench_tests.test_conformance as conformance  # the pytest block, collected

        (mark,) = conformance.test_conformance.pytestmark
        assert len(mark.args[1]) == 2 * 10  # one test per (benchmark, check)
        sys.modules.pop("toybench_tests.test_conformance", None)
        sys.modules.pop("toybench_tests", None)


def test_the_json_example_is_a_valid_sources_entry() -> None:
    from biasaudit.benchmarks import DataSource

    (block,) = _blocks("json")
    for key, entry in json.loads(block.replace("<64 hex>", "0" * 64)).items():
        DataSource.model_validate({**entry, "key": key})
