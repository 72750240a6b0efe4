"""Hostile data files given to a benchmark's options: one line naming the file (and the row or
field), exit 2, nothing written; the readers of `biasaudit.datasets` given a path: one
`DataError` naming it. The audit's cases (../shared/audits/reliability.md, 4b, L5-L7, L13)
and the same kinds of damage for every other user-supplied file.
"""

from __future__ import annotations

import hashlib
import json
import pickle
from collections.abc import Callable
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI

from biasaudit.benchmarks.calm.names import load_names_csv
from biasaudit.benchmarks.cobias.data import read_statements
from biasaudit.cli.app import main
from biasaudit.datasets.bbq import read_bbq_rows
from biasaudit.datasets.crows_pairs import read_crows_pairs_csv
from biasaudit.datasets.files import read_csv
from biasaudit.datasets.stereoset import read_stereoset
from biasaudit.errors import DataError
from hostile_inputs import STOP_ENTRY, STOP_VALID

DEEP = b"[" * 200_000 + b"]" * 200_000
MODEL = "openai:m@http://127.0.0.1:9/v1"  # never contacted: the data is refused first

NO_SEVERITY = {k: v for k, v in STOP_ENTRY.items() if k != "severity"}
STATEMENTS = (
    b"id,sentence,target_term,context_points\n1,The man is kind.,man,The man is ___ kind.\n"
)
CONTEXTS = b'{"id": "1", "versions": ["The old man is kind."]}\n'
BBNLI_VALID = b"".join(
    json.dumps(
        {"id": f"p{i}", "premise": "P.", "hypothesis": "H.", "stance": stance,
         "pair_id": "x", "domain": "gender", "subtopic": "s"}
    ).encode() + b"\n"
    for i, stance in enumerate(("pro", "anti"))
)  # fmt: skip

#: damage common to every file: (case, content); "missing" and "directory" are not bytes
COMMON: list[tuple[str, bytes | str]] = [
    ("missing", "missing"),
    ("directory", "directory"),
    ("empty", b""),
    ("random bytes", bytes(range(256)) * 4),
]
JSON_CASES: list[tuple[str, bytes | str]] = [
    ("deep JSON", DEEP),
    ("truncated", b'[{"prompts": ["a'),
    ("a number", b"42"),
    ("huge integer", b"1" * 5000),
]
JSONL_CASES: list[tuple[str, bytes | str]] = [
    ("deep JSON line", DEEP + b"\n"),
    ("a list line", b"[1, 2]\n"),
    ("bad UTF-8", b'{"id": "1\xff"}\n'),
    ("wrong types", b'{"id": {"a": 1}, "versions": "text"}\n'),
]
CSV_BAD_UTF8 = b"\xff\xfe"

#: (benchmark, -O options with FILE for the damaged file, its name, cases)
TARGETS: dict[str, tuple[str, list[str], str, list[tuple[str, bytes | str]]]] = {
    "stop data_file": (
        "stop",
        ["data_file=FILE"],
        "stop.json",
        [
            *COMMON,
            *JSON_CASES,
            ("bad UTF-8", STOP_VALID.replace(b"Sentence 0", b"Sent\xffence 0")),
            ("an empty list", b"[]"),
            ("wrong field type", json.dumps([{**STOP_ENTRY, "prompts": "x"}]).encode()),
            ("null field", json.dumps([{**STOP_ENTRY, "severity": None}]).encode()),
            ("missing field", json.dumps([NO_SEVERITY]).encode()),
        ],
    ),
    "calm names_csv": (
        "calm",
        ["names_csv=FILE", "attributes=custom", "tasks=qa"],
        "names.csv",
        [
            *COMMON,
            ("bad UTF-8", b"group,name\nA,Al\xffice\nB,Bob\n"),
            ("wrong columns", b"team,person\nA,Al\nB,Bob\n"),
            ("extra field", b"group,name\nA,Al,x\nB,Bob\n"),
            ("unclosed quote", b'group,name\nA,"Al\nB,Bob\n'),
            ("one group", b"group,name\nA,Al\nA,Bob\n"),
        ],
    ),
    "cobias dataset": (
        "cobias",
        ["dataset=FILE", "contexts=CONTEXTS"],
        "statements.csv",
        [
            *COMMON,
            ("bad UTF-8", STATEMENTS.replace(b"kind.,", b"ki\xffnd.,")),
            ("wrong columns", b"key,text\n1,The man is kind.\n"),
            ("short row (L7)", STATEMENTS + b"9\n"),
            ("header only", b"id,sentence,target_term,context_points\n"),
            ("unclosed quote", b'id,sentence\n1,"The man\n'),
            ("empty sentence (M5)", b"id,sentence,target_term,context_points\n1,,man,x\n"),
        ],
    ),
    "cobias contexts": (
        "cobias",
        ["dataset=STATEMENTS", "contexts=FILE"],
        "contexts.jsonl",
        [
            *COMMON,
            *JSONL_CASES,
            ("other ids", b'{"id": "77", "versions": ["x"]}\n'),
            ("no versions (M5)", b'{"id": "1", "versions": []}\n'),
        ],
    ),
    "cobias contexts folder": (
        "cobias",
        ["dataset=STATEMENTS", "contexts=FILE"],
        "pickles",
        [
            ("no pickles", "directory"),
            ("malicious pickle", b"cos\nsystem\n(S'true'\ntR."),
            ("not a list of strings", pickle.dumps({"a": 1})),
            ("truncated pickle", pickle.dumps(["a", "b"])[:-3]),
        ],
    ),
    "cobias ratings": (
        "cobias",
        ["dataset=STATEMENTS", "contexts=CONTEXTS", "ratings=FILE"],
        "ratings.csv",
        [
            *COMMON,
            ("bad UTF-8", b"id,Annotator 1\n1,\xff\n"),
            ("not a number", b"id,Annotator 1\n1,nan\n"),
            ("short row", b"id,Annotator 1,Annotator 2\n1,3\n"),
            ("wrong columns", b"id,score\n1,3\n"),
        ],
    ),
    "bbnli data_file": (
        "bbnli",
        ["data_file=FILE", "protocol=generative"],
        "samples.jsonl",
        [*COMMON, *JSONL_CASES, ("duplicate id", BBNLI_VALID.replace(b'"p1"', b'"p0"'))],
    ),
    "beads pairs": (
        "beads",
        ["task=judge", "pairs=FILE"],
        "pairs.jsonl",
        [
            *COMMON,
            *JSONL_CASES,
            ("missing source", b'{"id": "1", "kind": "original", "text": "Hi"}\n'),
        ],
    ),
    "beads data": (
        "beads",
        ["data=ROOT", "mode=generate"],
        "beads/1-Text-Classification/bias-valid.csv",
        [
            *COMMON,
            ("bad UTF-8", b"text,label\nHi \xff,Neutral\n"),
            ("wrong columns", b"words,verdict\nHi,Neutral\n"),
            ("extra field", b"text,label\nHi,Neutral,x\n"),
            ("quote left open", b'text,label\n"Hi,Neutral\n'),
            ("unknown label", b"text,label\nHi,maybe\n"),
        ],
    ),
}  # fmt: skip

CLI_CASES = [
    (target, case, content)
    for target, (_, _, _, cases) in TARGETS.items()
    for case, content in cases
]


def place(folder: Path, name: str, content: bytes | str) -> Path:
    """The damaged file (or folder) `name` under `folder`."""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if content == "directory":
        path.mkdir()
    elif isinstance(content, bytes) and name == "pickles":
        path.mkdir()
        (path / "1.pkl").write_bytes(content)
    elif isinstance(content, bytes):
        path.write_bytes(content)
    return path


@pytest.mark.parametrize(
    ("target", "case", "content"), CLI_CASES, ids=[f"{t}: {c}" for t, c, _ in CLI_CASES]
)
def test_cli_refuses_a_hostile_data_file(
    target: str,
    case: str,
    content: bytes | str,
    tmp_path: Path,
    data_dir: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    benchmark, options, name, _ = TARGETS[target]
    (tmp_path / "bad").mkdir()
    path = place(tmp_path / "bad", name, content)
    root = tmp_path / "bad" / "beads"
    (tmp_path / "statements.csv").write_bytes(STATEMENTS)
    (tmp_path / "contexts.jsonl").write_bytes(CONTEXTS)
    values = {"FILE": str(path), "STATEMENTS": str(tmp_path / "statements.csv"),
              "CONTEXTS": str(tmp_path / "contexts.jsonl"), "ROOT": str(root)}  # fmt: skip
    argv = ["run", benchmark, "-m", MODEL, "-o", str(tmp_path / "out"), "--data-dir",
            str(data_dir), "--no-cache", "-q"]  # fmt: skip
    for option in options:
        key, _, value = option.partition("=")
        argv += ["-O", f"{key}={values.get(value, value)}"]
    code = main(argv)
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2, err
    assert len(lines) == 1 and lines[0].startswith("biasaudit: error: "), err
    assert str(path) in lines[0], lines[0]
    assert not (tmp_path / "out").exists()


CROWS_HEADER = b"sent_more,sent_less,stereo_antistereo,bias_type\n"
READERS: dict[str, tuple[str, Callable[[Path], object], list[tuple[str, bytes | str]]]] = {
    "crows-pairs": (
        "crows.csv",
        read_crows_pairs_csv,
        [
            *COMMON,
            ("bad UTF-8", CROWS_HEADER + b"H\xff,S,stereo,gender\n"),
            ("wrong columns", b"a,b\n1,2\n"),
            ("header only", CROWS_HEADER),
            ("extra field", CROWS_HEADER + b"H,S,stereo,gender,x\n"),
            ("bad label", CROWS_HEADER + b"H,S,maybe,gender\n"),
            ("text after a closing quote", CROWS_HEADER + b'H,"S"x,stereo,gender\n'),
            ("quote left open", CROWS_HEADER + b'H,"S,stereo,gender\n'),
        ],
    ),
    "stereoset": (
        "stereoset.json",
        read_stereoset,
        [*COMMON, *JSON_CASES, *JSONL_CASES, ("no items", b'{"data": {}}')],
    ),
    "bbq": ("Age.jsonl", lambda p: read_bbq_rows(p, "Age"), [*COMMON, *JSONL_CASES]),
}  # fmt: skip

READER_CASES = [
    (reader, case, content) for reader, (_, _, cases) in READERS.items() for case, content in cases
]


@pytest.mark.parametrize(
    ("reader", "case", "content"), READER_CASES, ids=[f"{r}: {c}" for r, c, _ in READER_CASES]
)
def test_dataset_reader_refuses_a_hostile_file(
    reader: str, case: str, content: bytes | str, tmp_path: Path
) -> None:
    name, read, _ = READERS[reader]
    path = place(tmp_path, name, content)
    with pytest.raises(DataError) as info:
        read(path)
    assert "\n" not in str(info.value) and str(path) in str(info.value)


def test_huge_csv_fields_are_read(tmp_path: Path) -> None:
    """A field over the csv module's 128 KiB default is valid CSV (it was a traceback: L5)."""
    long_name = "A" * 200_000
    names = tmp_path / "names.csv"
    names.write_text(f"group,name\nA,{long_name}\nB,Bob\n")
    assert load_names_csv(names, "x").groups[0].pool == (long_name,)
    statements = tmp_path / "statements.csv"
    statements.write_text(f"id,sentence\n1,{long_name}\n")
    assert read_statements(statements)[0].sentence == long_name


def test_custom_files_are_recorded_with_their_sha256(tmp_path: Path, data_dir: Path) -> None:
    """L13: results.json names the custom data file and its sha256 (hashlib on its bytes)."""
    data = tmp_path / "stop.json"
    data.write_bytes(STOP_VALID)
    with FakeOpenAI() as server:
        argv = ["run", "stop", "-m", f"openai:m@{server.base_url}", "-O", f"data_file={data}",
                "-o", str(tmp_path / "out"), "--data-dir", str(data_dir), "--no-cache",
                "-q"]  # fmt: skip
        assert main(argv) == 0
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert results["benchmarks"][0]["data_files"] == [
        {"path": str(data), "sha256": hashlib.sha256(STOP_VALID).hexdigest()}
    ]


OPTION_CASES = [
    ("stop", "max_tokens=-5"),
    ("stop", "max_tokens=0"),
    ("stop", "temperature=-1"),
    ("bbq", "max_tokens=0"),
    ("bbq", "temperature=-0.5"),
    ("bbnli", "max_tokens=-1"),
    ("bbnli", "every=0"),
]


@pytest.mark.parametrize(("benchmark", "option"), OPTION_CASES)
def test_impossible_generation_options_are_refused(
    benchmark: str, option: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """L11: a negative max_tokens meant "until the context is full" to llama.cpp."""
    argv = ["run", benchmark, "-m", MODEL, "-O", option, "-o", str(tmp_path / "out"), "-q"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and option.split("=")[0] in err, err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("content", "line"),
    [
        (b'a,b\n1,2\n"x"y,3\n4,5\n', 3),  # text after a closing quote
        (b'a,b\n"x\n', 2),  # a quote left open to the end of the file
        (b'a,b\n1,"two\nlines"\n3,"x\nmore\n', 4),  # after a quoted field over two lines
    ],
)
def test_broken_csv_names_the_row_where_it_starts(
    content: bytes, line: int, tmp_path: Path
) -> None:
    path = tmp_path / "x.csv"
    path.write_bytes(content)
    with pytest.raises(DataError, match=f"the row starting at line {line} is not valid CSV"):
        read_csv(path)
