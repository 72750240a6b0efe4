"""Hostile input for the reliability tests: hypothesis strategies (random bytes, random JSON,
byte-level mutations of a valid file, deep nesting, a byte-order mark) and small hand-written
valid data files to mutate."""

from __future__ import annotations

import atexit
import json
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from biasaudit.benchmarks.stop.data import QUESTION

SETTINGS = settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=30,
)

DEEP = b"[" * 100_000 + b"]" * 100_000


@st.composite
def mutated(draw: st.DrawFn, valid: bytes) -> bytes:
    """`valid` with a few bytes replaced, inserted or cut (hostile but near-valid input)."""
    data = bytearray(valid)
    for _ in range(draw(st.integers(1, 4))):
        if not data:
            break
        at = draw(st.integers(0, len(data) - 1))
        action = draw(st.sampled_from(["replace", "insert", "cut"]))
        byte = draw(st.integers(0, 255))
        if action == "replace":
            data[at] = byte
        elif action == "insert":
            data.insert(at, byte)
        else:
            del data[at:]
    return bytes(data)


def hostile_bytes(valid: bytes) -> st.SearchStrategy[bytes]:
    return st.one_of(
        st.binary(max_size=300),
        json_values.map(lambda v: json.dumps(v).encode()),
        mutated(valid),
        st.just(DEEP),
        st.just(b"\xff\xfe" + valid),
    )


#: One folder per test process for every example's file, removed when the process ends (a
#: folder per example under /tmp, never removed, left 1,914 behind per run of the two
#: property-test modules).
_ROOT = Path(tempfile.mkdtemp(prefix="biasaudit-prop-"))
atexit.register(shutil.rmtree, _ROOT, ignore_errors=True)


def write(content: bytes, name: str) -> Path:
    """A new folder holding `content` as `name` (under :data:`_ROOT`)."""
    folder = Path(tempfile.mkdtemp(dir=_ROOT))
    (folder / name).write_bytes(content)
    return folder


#: One valid STOP progression (a custom `data_file` holds a list of these).
STOP_ENTRY = {
    "prompts": [f"Sentence {i}. {QUESTION}" for i in range(5)],
    "cfprompt": "Was it fine?",
    "severity": "low",
    "demographic": "age",
    "sub_demographic": "elder",
}
STOP_VALID = json.dumps([STOP_ENTRY]).encode()
