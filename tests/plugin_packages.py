"""Installing throw-away plug-in packages for tests: a package folder and its dist-info,
written into a temporary folder that is put on sys.path, so `importlib.metadata` sees the
package's ``biasaudit.benchmarks`` entry points exactly as it would after ``pip install``."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from biasaudit import plugin


def write_package(
    root: Path, name: str, files: dict[str, str], entry_points: dict[str, str]
) -> None:
    """`root/<name>/<file>` for each file, and `root/<name>-1.0.dist-info` declaring
    `entry_points` (entry name -> object reference) in the benchmark group."""
    package = root / name
    for relative, text in files.items():
        path = package / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    dist = root / f"{name}-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    lines = "".join(f"{entry} = {ref}\n" for entry, ref in entry_points.items())
    (dist / "entry_points.txt").write_text(f"[{plugin.ENTRY_POINT_GROUP}]\n{lines}")


@contextmanager
def on_path(root: Path, monkeypatch: pytest.MonkeyPatch, *packages: str) -> Iterator[None]:
    """`root` on sys.path with fresh discovery; the packages are forgotten afterwards."""
    monkeypatch.syspath_prepend(str(root))
    plugin.discover.cache_clear()
    try:
        yield
    finally:
        monkeypatch.undo()
        plugin.discover.cache_clear()
        for module in [m for m in sys.modules if m.split(".")[0] in packages]:
            del sys.modules[module]
