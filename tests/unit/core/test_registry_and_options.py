from __future__ import annotations

import pytest
from pydantic import Field

from biasaudit.benchmarks import BenchmarkOptions
from biasaudit.errors import BiasauditError, UnknownNameError
from biasaudit.models.spec import parse_spec
from biasaudit.options import parse_cli_pairs, parse_options
from biasaudit.registry import Registry


def test_unknown_name_suggests_close_matches() -> None:
    registry: Registry[object] = Registry("benchmark")
    registry.register("stop", "os:sep")
    registry.register("calm", "os:sep")
    with pytest.raises(UnknownNameError, match="did you mean 'stop'"):
        registry.check("stpo")
    assert registry.load("stop") == __import__("os").sep


def test_duplicate_registration_is_refused() -> None:
    registry: Registry[object] = Registry("x")
    registry.register("a", "os:sep")
    with pytest.raises(ValueError):
        registry.register("a", "os:sep")


def test_model_spec_parsing() -> None:
    assert parse_spec("embedded") == ("embedded", "")
    assert parse_spec("openai:m@http://127.0.0.1:1/v1") == ("openai", "m@http://127.0.0.1:1/v1")
    with pytest.raises(UnknownNameError, match="did you mean 'gguf'"):
        parse_spec("guff:/x.gguf")


def test_listing_backends_does_not_import_heavy_stacks() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from biasaudit.models.spec import BACKENDS\n"
        "caps = [BACKENDS.load(n).possible_capabilities for n in BACKENDS.names()]\n"
        "assert all(caps)\n"
        "heavy = [m for m in ('torch', 'llama_cpp', 'transformers') if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


class _Opts(BenchmarkOptions):
    limit_groups: int = 3
    preset: str = Field(default="default")


def test_cli_pairs_are_json_when_possible() -> None:
    assert parse_cli_pairs(["a=1", "b=x", "c=[1,2]", "d=true"]) == {
        "a": 1,
        "b": "x",
        "c": [1, 2],
        "d": True,
    }
    with pytest.raises(BiasauditError, match="key=value"):
        parse_cli_pairs(["novalue"])


def test_unknown_option_suggests() -> None:
    with pytest.raises(UnknownNameError, match="did you mean 'preset'"):
        parse_options(_Opts, {"presett": "paper"}, "stop")


def test_invalid_option_value_is_one_line() -> None:
    with pytest.raises(BiasauditError, match="option 'limit_groups' for stop"):
        parse_options(_Opts, {"limit_groups": "many"}, "stop")


def test_a_comma_separated_value_of_a_list_option_is_its_items() -> None:
    from biasaudit.benchmarks.stereoset.benchmark import StereoSetOptions
    from biasaudit.options import parse_options

    one = parse_options(StereoSetOptions, {"splits": "intrasentence"}, "stereoset")
    assert one.splits == ["intrasentence"]
    two = parse_options(StereoSetOptions, {"splits": "intersentence, intrasentence"}, "stereoset")
    assert two.splits == ["intersentence", "intrasentence"]
    listed = parse_options(StereoSetOptions, {"splits": ["intrasentence"]}, "stereoset")
    assert listed.splits == ["intrasentence"]
    with pytest.raises(BiasauditError, match="splits"):
        parse_options(StereoSetOptions, {"splits": "intra"}, "stereoset")
    # a string option keeps its commas
    assert (
        parse_options(StereoSetOptions, {"scorer": "loglikelihood"}, "s").scorer == "loglikelihood"
    )
