"""Objects and files named by reference (stdlib only): the one ``"module:attribute"``
importer, the one ``"package:file"`` resource reader, the one "did you mean" hint and the one
reader of entry points (what installed packages add: benchmarks, their analyses and profiles,
backends).

Plug-ins name their parts by reference (a spec's benchmark class, profile, analyses, report
view; a registry's backends; a YAML task's reader), so that listing them imports nothing heavy.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.metadata
import importlib.resources
from collections.abc import Iterable
from typing import Any

from biasaudit.errors import DataError


def import_object(ref: str) -> Any:
    """The attribute ``attribute`` of module ``module`` named by ``"module:attribute"``
    (dots in the attribute walk into it: ``"pkg.mod:Class.method"``)."""
    module_name, sep, attribute = ref.partition(":")
    if not sep or not module_name or not attribute:
        raise ValueError(f"'{ref}' is not a 'module:attribute' reference")
    obj: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        obj = getattr(obj, part)
    return obj


def read_resource(ref: str) -> str:
    """The text of ``"package:path/in/package"`` (a file shipped inside an installed package)."""
    package, sep, name = ref.partition(":")
    if not sep or not package or not name:
        raise DataError(f"'{ref}' is not a 'package:file' resource reference")
    try:
        return importlib.resources.files(package).joinpath(name).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError) as exc:
        raise DataError(f"resource {ref} cannot be read ({exc})") from None


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``"; did you mean 'a', 'b'?"`` for up to three close names, else ``""``."""
    close = difflib.get_close_matches(name, list(known), n=3, cutoff=0.5)
    return f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""


def entry_points(group: str) -> list[tuple[str, str]]:
    """(name, reference) of every entry point installed packages declare in `group`, in the
    order importlib.metadata finds them; the references are not imported."""
    return [(entry.name, entry.value) for entry in importlib.metadata.entry_points(group=group)]
