"""The restricted unpickler: lists of strings only, anything else rejected before it runs."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest

from biasaudit.benchmarks.cobias.data import read_contexts
from biasaudit.benchmarks.cobias.safe_pickle import load_string_list, loads_string_list
from biasaudit.errors import DataError


class _RunsCode:
    """Unpickling this would call os.system (a classic pickle exploit)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return os.system, (f"touch {self.marker}",)


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_list_of_strings_loads_under_every_protocol(protocol: int) -> None:
    versions = ["\nThe senior women at the office are arrogant.", "", "x" * 300, "héllo"] * 3
    assert loads_string_list(pickle.dumps(versions, protocol=protocol)) == versions


@pytest.mark.parametrize("protocol", [0, 2, pickle.HIGHEST_PROTOCOL])
def test_malicious_pickle_is_rejected_and_never_runs(tmp_path: Path, protocol: int) -> None:
    marker = tmp_path / "pwned"
    payload = pickle.dumps([_RunsCode(marker)], protocol=protocol)
    path = tmp_path / "7.pkl"
    path.write_bytes(payload)
    with pytest.raises(DataError, match=r"7\.pkl: rejected pickle: opcode (STACK_)?GLOBAL"):
        load_string_list(path)
    assert not marker.exists()


@pytest.mark.parametrize(
    "value", [{"a": "b"}, ("a", "b"), ["a", 1], [["nested"]], "just a string", [b"bytes"]]
)
def test_other_plain_structures_are_rejected(value: object) -> None:
    with pytest.raises(DataError, match="rejected pickle"):
        loads_string_list(pickle.dumps(value, protocol=4), "x.pkl")


def test_truncated_pickle_is_a_data_error() -> None:
    payload = pickle.dumps(["a", "b"], protocol=4)[:-3]
    with pytest.raises(DataError, match="x.pkl"):
        loads_string_list(payload, "x.pkl")


def test_folder_of_pickles_is_read_by_id(tmp_path: Path) -> None:
    (tmp_path / "0.pkl").write_bytes(pickle.dumps(["a", "b"]))
    (tmp_path / "12.pkl").write_bytes(pickle.dumps(["c"]))
    assert read_contexts(tmp_path) == {"0": ["a", "b"], "12": ["c"]}


def test_folder_with_a_malicious_pickle_fails_as_a_whole(tmp_path: Path) -> None:
    (tmp_path / "0.pkl").write_bytes(pickle.dumps(["a"]))
    (tmp_path / "1.pkl").write_bytes(pickle.dumps(_RunsCode(tmp_path / "m")))
    with pytest.raises(DataError, match=r"1\.pkl"):
        read_contexts(tmp_path)
    assert not (tmp_path / "m").exists()
