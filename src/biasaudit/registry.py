"""A small lazy registry with "did you mean" errors.

Entries are import paths ("module:attribute"), so listing names never imports heavy stacks
such as torch or llama.cpp; the object is imported when it is first used.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

from biasaudit.errors import UnknownNameError

T = TypeVar("T")


class Registry(Generic[T]):
    """Names mapped to lazily imported objects, with a one-line description each."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._paths: dict[str, str] = {}
        self._descriptions: dict[str, str] = {}

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

    def names(self) -> list[str]:
        return sorted(self._paths)

    def description(self, name: str) -> str:
        self.check(name)
        return self._descriptions[name]

    def check(self, name: str) -> None:
        """Raise UnknownNameError, with close matches, if `name` is not registered."""
        if name in self._paths:
            return
        close = difflib.get_close_matches(name, self._paths, n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        known = ", ".join(self.names())
        raise UnknownNameError(f"unknown {self.kind} '{name}'{hint} (known: {known})")

    def load(self, name: str) -> T:
        self.check(name)
        module_name, _, attribute = self._paths[name].partition(":")
        module = importlib.import_module(module_name)
        obj: T = getattr(module, attribute)
        return obj
