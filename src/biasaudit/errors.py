"""User-facing errors.

Every error a user can cause (bad name, missing file, malformed row, unreachable server) is a
`BiasauditError`. The CLI prints its message as one line and exits non-zero without a traceback;
anything else is a bug and keeps its traceback.
"""

from __future__ import annotations


class BiasauditError(Exception):
    """An error caused by input or environment, reported to the user as one line."""

    exit_code = 2


class UnknownNameError(BiasauditError):
    """A benchmark, backend or option name that is not registered."""


class CapabilityError(BiasauditError):
    """A backend was asked for a request type it does not support."""


class DataError(BiasauditError):
    """Missing data, checksum mismatch, or a malformed dataset row."""


class BackendError(BiasauditError):
    """A backend could not be created or reached (missing file, unreachable server)."""


class RunError(BiasauditError):
    """An output directory or run configuration problem."""


class CacheError(RunError):
    """The response cache file cannot be used (not a cache, damaged, unwritable, disk full)."""


class PluginError(BiasauditError):
    """A declared part of a plug-in (its profile, suites, ...) that cannot be used."""


class DeclarationError(PluginError, ValueError):
    """A benchmark's declaration contradicts its own samples (a suite key no sample has, a
    stratum that varies within a unit): that benchmark is skipped, the rest goes on."""


class OneLineWarning(UserWarning):
    """Something the user should know that does not stop the command (a damaged checkpoint
    passed over, a lost loss curve): the CLI prints it as one ``biasaudit: warning:`` line,
    without Python's file, line number and source line."""


def one_line(exc: BaseException) -> str:
    """'Type: message', first line only: how a plug-in's failure is named in one line."""
    return f"{type(exc).__name__}: {exc}".splitlines()[0]
