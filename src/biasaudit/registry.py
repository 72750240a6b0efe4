"""A small lazy registry with "did you mean" errors and entry points.

Entries are import paths ("module:attribute"), so listing names never imports heavy stacks
such as torch or llama.cpp; the object is imported when it is first used
(`biasaudit.importing.import_object`, the one importer).

A registry with an entry-point group also holds what installed packages declare in that
group, exactly as benchmarks are discovered (``biasaudit.benchmarks``): a third-party
backend package declares

    [project.entry-points."biasaudit.backends"]
    uniform = "uniform_backend:UniformBackend"

and ``--model uniform:...`` works once it is installed (examples/uniform-backend). An entry
point never replaces a built-in name: it is left out and recorded (`problems`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

from biasaudit.errors import PluginError, UnknownNameError, one_line
from biasaudit.importing import did_you_mean, entry_points, import_object

T = TypeVar("T")


class Registry(Generic[T]):
    """Names mapped to lazily imported objects, with a one-line description each."""

    def __init__(self, kind: str, entry_point_group: str | None = None) -> None:
        self.kind = kind
        #: The entry-point group installed packages add entries through (None: none).
        self.entry_point_group = entry_point_group
        self._paths: dict[str, str] = {}
        self._descriptions: dict[str, str] = {}
        self._from_entry_points: set[str] = set()
        self._scanned = False
        #: One line per entry point left out (a name already taken).
        self.problems: list[str] = []

    def register(self, name: str, path: str, description: str = "") -> None:
        if name in self._paths:
            raise ValueError(f"{self.kind} '{name}' is registered twice")
        self._paths[name] = path
        self._descriptions[name] = description

    @contextmanager
    def temporarily(self, name: str, path: str, description: str = "") -> Iterator[None]:
        """`name` registered inside the block only (a test backend, for example)."""
        self.register(name, path, description)
        try:
            yield
        finally:
            del self._paths[name], self._descriptions[name]

    def rescan(self) -> None:
        """Forget the entries entry points added; the next lookup reads them again (after a
        package was installed or removed in this process)."""
        for name in self._from_entry_points:
            self._paths.pop(name, None)
            self._descriptions.pop(name, None)
        self._from_entry_points.clear()
        self.problems.clear()
        self._scanned = False

    def _scan(self) -> None:
        if self._scanned or self.entry_point_group is None:
            return
        self._scanned = True
        for name, ref in entry_points(self.entry_point_group):
            if name in self._paths:
                self.problems.append(
                    f"{self.kind} '{name}' of entry point {ref} skipped: the "
                    f"name is taken by {self._paths[name]}"
                )
                continue
            self._paths[name] = ref
            self._descriptions[name] = ""
            self._from_entry_points.add(name)

    def names(self) -> list[str]:
        self._scan()
        return sorted(self._paths)

    def origin(self, name: str) -> str:
        """``built-in`` or ``entry point`` (an installed package)."""
        self.check(name)
        return "entry point" if name in self._from_entry_points else "built-in"

    def description(self, name: str) -> str:
        """The registered description; for an entry point, the first line of its object's
        docstring (the object is imported to read it)."""
        self.check(name)
        if not self._descriptions[name] and name in self._from_entry_points:
            try:
                doc = (self.load(name).__doc__ or "").strip()
            except Exception as exc:  # a broken package is described, not raised
                return f"cannot be loaded from {self._paths[name]} ({type(exc).__name__})"
            self._descriptions[name] = doc.splitlines()[0] if doc else self._paths[name]
        return self._descriptions[name]

    def check(self, name: str) -> None:
        """Raise UnknownNameError, with close matches, if `name` is not registered."""
        self._scan()
        if name in self._paths:
            return
        hint = did_you_mean(name, self._paths)
        known = ", ".join(self.names())
        raise UnknownNameError(f"unknown {self.kind} '{name}'{hint} (known: {known})")

    def load(self, name: str) -> T:
        """The object; an installed package's entry that fails to import is a one-line
        PluginError naming it (a built-in's failure is a bug and keeps its traceback)."""
        self.check(name)
        try:
            obj: T = import_object(self._paths[name])
        except Exception as exc:
            if name not in self._from_entry_points:
                raise
            raise PluginError(
                f"{self.kind} '{name}' of entry point {self._paths[name]} cannot be loaded "
                f"({one_line(exc)})"
            ) from None
        return obj
