"""Register the calibration backends (tests/unit/profile/profile_calibration.py) as ``calib:*``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from biasaudit.models import BACKENDS


@pytest.fixture(autouse=True)
def calib_backend(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(BACKENDS._paths, "calib", "profile_calibration:CalibrationBackend")
    monkeypatch.setitem(BACKENDS._descriptions, "calib", "profile calibration models")
    yield
