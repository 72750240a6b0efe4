"""The default thread count: arithmetic on the core count and the busy cores, and the busy
cores read from two /proc/stat readings (worked by hand)."""

from __future__ import annotations

import io
import os

import pytest

from biasaudit.models.threads import auto_threads, busy_cores, idle_share


def test_idle_machine_uses_every_core() -> None:
    assert auto_threads(cpus=2, load=0.1) == 2
    assert auto_threads(cpus=8, load=0.0) == 8


def test_busy_machine_uses_the_idle_cores_and_at_least_one() -> None:
    assert auto_threads(cpus=2, load=1.0) == 1  # one core busy: one left
    assert auto_threads(cpus=2, load=0.6) == 1  # 1.4 idle cores round to 1
    assert auto_threads(cpus=8, load=5.2) == 3  # 2.8 idle
    assert auto_threads(cpus=2, load=14.0) == 1  # oversubscribed: never 0


def test_idle_share_of_two_proc_stat_readings_by_hand() -> None:
    before = "cpu  100 0 50 800 50 0 0 0 0 0"
    # 60 user + 10 nice + 30 system + 80 idle + 20 iowait = 200 ticks, 100 of them idle
    after = "cpu  160 10 80 880 70 0 0 0 0 0"
    assert idle_share(before, after) == pytest.approx(0.5)
    assert idle_share(before, before) == 1.0  # no time passed: nothing busy
    # steal counts as busy (the 8th field): 100 steal + 100 idle
    assert idle_share("cpu 0 0 0 0 0 0 0 0", "cpu 0 0 0 100 0 0 0 100") == pytest.approx(0.5)
    with pytest.raises(ValueError, match="cpu line"):
        idle_share("cpu0 1 2 3 4 5", after)


def test_busy_cores_reads_this_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    busy = busy_cores(window=0.05)
    if busy is not None:  # Linux: between none and every core
        assert 0.0 <= busy <= (os.cpu_count() or 1)
    readings = iter(["cpu  0 0 0 0 0 0 0 0\n", "cpu  30 0 0 10 0 0 0 0\n"])
    monkeypatch.setattr("builtins.open", lambda *a, **k: io.StringIO(next(readings)))
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    assert busy_cores(window=0.0) == pytest.approx(3.0)  # 75 % busy of 4 cores
    assert auto_threads(cpus=4, load=3.0) == 1


def test_unreadable_proc_stat_gives_none(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object, **__: object) -> object:
        raise OSError("no /proc")

    monkeypatch.setattr("builtins.open", refuse)
    assert busy_cores(window=0.0) is None
