"""Issue 33 item 8: a data file is read with a size bound, never grown without end."""

from __future__ import annotations

from pathlib import Path

import pytest

from biasaudit.datasets.files import read_bytes
from biasaudit.errors import DataError


def test_a_device_with_no_end_is_refused_not_read_forever() -> None:
    with pytest.raises(DataError, match=r"/dev/zero: larger than 1,048,576 bytes"):
        read_bytes("/dev/zero", limit=1 << 20)


def test_a_file_over_the_bound_is_refused_and_one_at_it_is_read(tmp_path: Path) -> None:
    file = tmp_path / "rows.json"
    file.write_bytes(b"x" * 1000)
    assert read_bytes(file, limit=1000) == b"x" * 1000
    with pytest.raises(DataError, match="rows.json: larger than 999 bytes"):
        read_bytes(file, limit=999)


def test_stop_data_file_dev_zero_is_a_data_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from biasaudit import plugin
    from biasaudit.datasets import files
    from biasaudit.discovery import open_store

    monkeypatch.setattr(files, "MAX_FILE_BYTES", 1 << 22)  # small, so the test takes no memory
    bench = plugin.benchmark_class("stop").from_dict({"data_file": "/dev/zero"}, open_store(), 0)
    with pytest.raises(DataError, match=r"/dev/zero: larger than 4,194,304 bytes"):
        bench.load_samples()
