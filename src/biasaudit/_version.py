"""Toolkit version and, when run from a git checkout, its revision."""

from __future__ import annotations

import platform
import subprocess
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

try:
    __version__ = version("biasaudit")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0+unknown"


@cache
def git_revision() -> str | None:
    """The checkout's commit (with '-dirty' when modified), or None outside git."""
    here = Path(__file__).resolve().parent
    try:
        rev = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=5
        )
        if rev.returncode != 0:
            return None
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=here,
            capture_output=True,
            text=True,
            timeout=5,
        )
        suffix = "-dirty" if dirty.stdout.strip() else ""
        return rev.stdout.strip() + suffix
    except (OSError, subprocess.SubprocessError):
        return None


def python_version() -> str:
    return platform.python_version()
