"""`biasaudit list options NAME` and `biasaudit run NAME --help-options`: every option with its
type, default and description (the field's description, else its ``#:`` comment)."""

from __future__ import annotations

import json
from typing import Literal

import pytest
from pydantic import Field

from biasaudit.benchmarks import BenchmarkOptions
from biasaudit.cli.app import main
from biasaudit.options import describe_options


class ToyOptions(BenchmarkOptions):
    #: How many examples precede the question.
    shots: int = 0
    mode: Literal["a", "b"] = Field("a", description="which wording")
    #: A comment block
    #: of two lines.
    names: list[str] = Field(default_factory=lambda: ["x"])
    data_file: str | None = None
    needed: float


def test_rows_of_a_hand_made_options_class() -> None:
    assert describe_options(ToyOptions) == [
        {"name": "shots", "type": "int", "default": "0",
         "description": "How many examples precede the question."},
        {"name": "mode", "type": "Literal['a', 'b']", "default": '"a"',
         "description": "which wording"},
        {"name": "names", "type": "list[str]", "default": '["x"]',
         "description": "A comment block of two lines."},
        {"name": "data_file", "type": "str | None", "default": "null",
         "description": "(no description)"},
        {"name": "needed", "type": "float", "default": "(required)",
         "description": "(no description)"},
    ]  # fmt: skip


def test_list_options_of_a_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "options", "winobias", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in rows] == ["normalisation", "where"]
    assert rows[1]["default"] == "{}" and "split" in rows[1]["description"]
    assert main(["list", "options", "stop"]) == 0
    table = capsys.readouterr().out
    assert "instruction_role" in table and "Chat history only" in table


def test_help_options_prints_and_runs_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "crows_pairs", "--help-options", "--model", "no-such-backend"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("crows_pairs:") and "scorer" in out and "bias_types" in out


def test_list_options_needs_a_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "options"]) == 2
    assert "needs a benchmark name" in capsys.readouterr().err
    assert main(["list", "options", "stpo"]) == 2
    assert "did you mean 'stop'" in capsys.readouterr().err
