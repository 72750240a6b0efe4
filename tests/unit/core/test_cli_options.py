"""The run options are declared once (biasaudit.cli.args) and every command that takes them
gets the same ones (issue 30)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

import biasaudit.cli
from biasaudit.cli.analyses import build_analysis_parser
from biasaudit.cli.app import build_parser

SHARED = (
    "--data-dir", "--model", "--model-arg", "--option", "--seed", "--cache", "--no-cache",
    "--quiet", "--batch-size", "--shard", "--resume", "--max-failed-samples",
)  # fmt: skip
CLI = Path(biasaudit.cli.__file__).parent


def test_each_shared_option_is_declared_in_one_place() -> None:
    declared: dict[str, list[str]] = {}
    for path in sorted(CLI.glob("*.py")):
        for flag in re.findall(r'add_argument\(\s*"(--[a-z-]+)"', path.read_text()):
            declared.setdefault(flag, []).append(path.name)
    assert {f: declared.get(f) for f in SHARED} == {f: ["args.py"] for f in SHARED}


def _options(parser: argparse.ArgumentParser, command: str) -> dict[str, str | None]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    child = sub.choices[command]
    return {s: a.help for a in child._actions for s in a.option_strings}


@pytest.mark.parametrize("flag", SHARED)
def test_run_and_audit_take_the_same_option(flag: str) -> None:
    parser = build_parser()
    run, audit = _options(parser, "run"), _options(parser, "audit")
    assert flag in run and run[flag] == audit[flag]


def test_an_analysis_takes_the_session_options() -> None:
    parser = build_analysis_parser("stop")
    options = _options(parser, "human")
    run = _options(build_parser(), "run")
    for flag in ("--data-dir", "--seed", "--cache", "--no-cache", "--quiet"):
        assert options[flag] == run[flag]
