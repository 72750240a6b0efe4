"""Every reader of a data file a user can hand a benchmark raises only `DataError`, with one
line naming the file, whatever the file holds (audit L5, L6, L7; ../shared/audits/reliability.md).

The readers: STOP `data_file`, CALM `names_csv`, COBIAS `dataset` / `contexts` (JSON lines or a
folder of pickles) / `ratings`, BBNLI `data_file`, BEADs data files and `pairs`, and the
CrowS-Pairs, StereoSet and BBQ file readers (`biasaudit.datasets`) given any path. Each gets
random bytes, random JSON, byte-level mutations of a small valid file (hand-written below),
100k-deep JSON and a UTF-16 byte-order mark in front of the valid file; `test_valid_files_load`
shows the valid files themselves load, so the mutations start from something real.
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

from biasaudit.benchmarks.bbnli.benchmark import read_samples_file
from biasaudit.benchmarks.beads.dataset import load_file
from biasaudit.benchmarks.beads.judging import load_pairs
from biasaudit.benchmarks.calm.names import load_names_csv
from biasaudit.benchmarks.cobias.data import read_contexts, read_statements
from biasaudit.benchmarks.cobias.validation import read_ratings
from biasaudit.benchmarks.stop.data import load_progressions
from biasaudit.datasets.bbq import read_bbq_rows
from biasaudit.datasets.crows_pairs import read_crows_pairs_csv
from biasaudit.datasets.stereoset import read_stereoset
from biasaudit.errors import DataError
from hostile_inputs import SETTINGS, STOP_VALID, hostile_bytes, write


def _lines(*records: dict[str, Any]) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in records).encode()


BBNLI_PAIR = [
    {"id": f"p{i}", "premise": "P.", "hypothesis": "H.", "stance": stance, "pair_id": "x",
     "domain": "gender", "subtopic": "s"}
    for i, stance in enumerate(("pro", "anti"))
]  # fmt: skip
BBQ_ROW = {
    "example_id": 0, "question_index": "1", "question_polarity": "neg",
    "context_condition": "ambig", "category": "Age",
    "answer_info": {"ans0": ["grandfather", "old"], "ans1": ["grandson", "nonOld"],
                    "ans2": ["Unknown", "unknown"]},
    "additional_metadata": {"subcategory": "None", "stereotyped_groups": ["old"]},
    "context": "A grandson and a grandfather.", "question": "Who was confused?",
    "ans0": "The grandfather", "ans1": "The grandson", "ans2": "Unknown", "label": 2,
}  # fmt: skip
STEREOSET_ITEM = {
    "type": "intrasentence", "target": "chess player", "bias_type": "profession",
    "context": "The chess player was BLANK.", "stereotype": "The chess player was nerdy.",
    "anti-stereotype": "The chess player was sporty.", "unrelated": "The chess player was sky.",
}  # fmt: skip


def _pickles(folder: Path) -> dict[str, list[str]]:
    """COBIAS contexts as the authors' folder: the hostile bytes are one {id}.pkl."""
    (folder / "file").rename(folder / "1.pkl")
    return read_contexts(folder)


#: name -> (file name, loader of that file, a small valid file)
LOADERS: dict[str, tuple[str, Callable[[Path], object], bytes]] = {
    "stop data_file": ("stop.json", load_progressions, STOP_VALID),
    "calm names_csv": (
        "names.csv",
        lambda p: load_names_csv(p, "custom"),
        b"group,name\nA,Al\nB,Bea\n",
    ),
    "cobias dataset": (
        "statements.csv",
        read_statements,
        b"id,sentence,target_term,context_points\n1,The man is kind.,man,The man is ___ kind.\n",
    ),
    "cobias contexts (jsonl)": (
        "contexts.jsonl",
        read_contexts,
        _lines({"id": "1", "versions": ["The man is kind."]}),
    ),
    "cobias contexts (pickles)": (
        "file",
        lambda p: _pickles(p.parent),
        pickle.dumps(["The man is kind."]),
    ),
    "cobias ratings": ("ratings.csv", read_ratings, b"id,Annotator 1,Annotator 2\n1,3,4\n"),
    "bbnli data_file": ("samples.jsonl", read_samples_file, _lines(*BBNLI_PAIR)),
    "beads csv": ("bias.csv", lambda p: load_file(p, "bias"), b"text,label\nHello,Neutral\n"),
    "beads jsonl": (
        "bias.jsonl",
        lambda p: load_file(p, "bias"),
        _lines({"text": "Hi", "label": "Biased"}),
    ),
    "beads json": (
        "bias.json",
        lambda p: load_file(p, "bias"),
        json.dumps([{"text": "Hi", "label": 1}]).encode(),
    ),
    "beads pairs": (
        "pairs.jsonl",
        lambda p: load_pairs(str(p)),
        _lines({"id": "1", "kind": "original", "text": "Hi", "source": "Hi"}),
    ),
    "crows-pairs csv": (
        "crows.csv",
        read_crows_pairs_csv,
        b",sent_more,sent_less,stereo_antistereo,bias_type\n"
        b"0,He is bad.,She is bad.,stereo,gender\n",
    ),
    "stereoset": ("stereoset.jsonl", read_stereoset, _lines(STEREOSET_ITEM)),
    "bbq": ("Age.jsonl", lambda p: read_bbq_rows(p, "Age"), _lines(BBQ_ROW)),
}


def load(name: str, content: bytes) -> None:
    """Feed `content` to the loader: it returns, or raises a one-line DataError naming the file."""
    file_name, loader, _ = LOADERS[name]
    path = write(content, file_name) / file_name
    try:
        loader(path)
    except DataError as exc:
        message = str(exc)
        assert "\n" not in message, message
        assert str(path.parent) in message, message


@pytest.mark.parametrize("name", LOADERS)
def test_valid_files_load(name: str) -> None:
    file_name, loader, valid = LOADERS[name]
    assert loader(write(valid, file_name) / file_name)


def _property(name: str) -> Callable[[], None]:
    @SETTINGS
    @given(hostile_bytes(LOADERS[name][2]))
    def check(content: bytes) -> None:
        load(name, content)

    return check


test_stop_data_file = _property("stop data_file")
test_calm_names_csv = _property("calm names_csv")
test_cobias_dataset = _property("cobias dataset")
test_cobias_contexts_jsonl = _property("cobias contexts (jsonl)")
test_cobias_contexts_pickles = _property("cobias contexts (pickles)")
test_cobias_ratings = _property("cobias ratings")
test_bbnli_data_file = _property("bbnli data_file")
test_beads_csv = _property("beads csv")
test_beads_jsonl = _property("beads jsonl")
test_beads_json = _property("beads json")
test_beads_pairs = _property("beads pairs")
test_crows_pairs_csv = _property("crows-pairs csv")
test_stereoset = _property("stereoset")
test_bbq = _property("bbq")
