"""Reading the authors' per-id pickle files (``{id}.pkl``, a list of strings) safely.

Unpickling runs code: a pickle can name any importable callable (``os.system``) and call it.
These files are therefore read in three guarded steps: (1) every opcode must be one of the
few needed to build a list of strings, so globals, calls, object construction and extensions
are rejected before anything runs; (2) the unpickler refuses every global lookup anyway; (3)
the result must be a list whose items are all ``str``.
"""

from __future__ import annotations

import io
import pickle
import pickletools
from pathlib import Path

from biasaudit.errors import DataError

#: Opcodes that can occur in a pickled list of str (protocols 0-5) and do nothing else.
_ALLOWED_OPCODES = frozenset(
    {
        "PROTO",
        "FRAME",
        "STOP",
        "MARK",
        "EMPTY_LIST",
        "LIST",
        "APPEND",
        "APPENDS",
        "UNICODE",
        "SHORT_BINUNICODE",
        "BINUNICODE",
        "BINUNICODE8",
        "PUT",
        "BINPUT",
        "LONG_BINPUT",
        "MEMOIZE",
        "GET",
        "BINGET",
        "LONG_BINGET",
    }
)


class _NoGlobals(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> object:
        raise pickle.UnpicklingError(f"refused to load global {module}.{name}")

    def persistent_load(self, pid: object) -> object:
        raise pickle.UnpicklingError("refused a persistent id")


def loads_string_list(payload: bytes, source: str = "<bytes>") -> list[str]:
    """Unpickle `payload` if and only if it is a plain list of strings."""
    try:
        for opcode, arg, _ in pickletools.genops(payload):
            if opcode.name not in _ALLOWED_OPCODES:
                detail = f" ({arg})" if opcode.name in {"GLOBAL", "STACK_GLOBAL"} and arg else ""
                raise DataError(
                    f"{source}: rejected pickle: opcode {opcode.name}{detail} is not allowed; "
                    f"only a list of strings is accepted"
                )
        value = _NoGlobals(io.BytesIO(payload)).load()
    except DataError:
        raise
    except Exception as exc:  # malformed or truncated pickle streams raise many types
        raise DataError(f"{source}: not a readable pickle of a list of strings ({exc})") from None
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise DataError(f"{source}: rejected pickle: expected a list of strings")
    return value


def load_string_list(path: Path) -> list[str]:
    """Read one ``{id}.pkl`` file through `loads_string_list`."""
    try:
        payload = path.read_bytes()
    except OSError as exc:
        raise DataError(f"{path}: cannot read ({exc.strerror})") from None
    return loads_string_list(payload, str(path))
