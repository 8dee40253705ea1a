"""The ``local`` judge backend: a GGUF model served by llama.cpp inside this process.

``[judge] backend = "local"`` needs no server of the user's: on the first question, the
``xllamacpp`` wheel (llama.cpp's server, the ``local-judge`` extra) loads ``model`` and
listens on a free loopback port, with a random API key so no other local user can ask it;
the ordinary ``JudgeClient`` then talks to it like any OpenAI-compatible endpoint, so the
budget, the breaker, the deadline, token log-probabilities and llama.cpp's prompt cache all
apply unchanged. One server per process and model: the wrap child, ``serve``, each
``--workers`` process and each Ray actor start their own (a forked child never reuses its
parent's, whose threads did not survive the fork). The file is checked first
(``judge/gguf.py``), so a failure names its cause: missing, not a GGUF, truncated, or the
port taken. A model that fails to load is tried again only after a backoff (1 s, doubling,
at most 5 minutes: ``runtime.reload_delay``); meanwhile questions get the same error
(``unavailable``).

The server has one slot (``n_parallel = 1``): with a few CPU threads, parallel questions
only share them, and one slot keeps the previous prompt for the next question's prefix.
"""

from __future__ import annotations

import os
import re
import secrets
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragguard.config import JudgeConfig
from ragguard.errors import ModelLoadError
from ragguard.judge.gguf import check_model, special_tokens
from ragguard.runtime import reload_delay

_HUB_FILE = re.compile(r"^([\w.-]+/[\w.-]+)/([\w.-]+\.gguf)$")


@dataclass(frozen=True)
class LocalServer:
    """A started server: where to ask it and the key it wants."""

    base_url: str
    api_key: str
    pid: int
    handle: Any
    """The ``xllamacpp.Server``: it serves while this object lives."""
    special: tuple[str, ...] = ()
    """The model's own special tokens (``gguf.special_tokens``), made inert in prompts."""


@dataclass(frozen=True)
class LoadFailure:
    """A failed start: its error, the attempts so far and when the next may be made."""

    error: ModelLoadError
    attempts: int
    retry_at: float


_lock = threading.Lock()
_servers: dict[tuple[str, int, int], LocalServer | LoadFailure] = {}


def server(config: JudgeConfig, clock: Any = time.monotonic) -> LocalServer:
    """The process's server for ``config``'s model, started on first use (ModelLoadError
    when the engine is missing or the model does not load; until the backoff has passed,
    later calls get the same error without trying again)."""
    key = (config.model, config.threads, config.n_ctx)
    with _lock:
        found = _servers.get(key)
        if isinstance(found, LocalServer) and found.pid != os.getpid():
            found = None  # a forked child: the parent's server threads are not here
        attempts = found.attempts if isinstance(found, LoadFailure) else 0
        if found is None or (isinstance(found, LoadFailure) and clock() >= found.retry_at):
            try:
                found = _start(config)
            except ModelLoadError as error:
                found = LoadFailure(error, attempts + 1, clock() + reload_delay(attempts + 1))
            _servers[key] = found
    if isinstance(found, LoadFailure):
        raise found.error
    return found


def load_attempts(config: JudgeConfig) -> int:
    """How many times ``config``'s model failed to load in this process (0: never failed)."""
    found = _servers.get((config.model, config.threads, config.n_ctx))
    return found.attempts if isinstance(found, LoadFailure) else 0


def model_source(model: str) -> tuple[str, str] | Path:
    """A local GGUF file, or (hub repo, file name) for ``owner/repo/file.gguf``."""
    path = Path(model).expanduser()
    if path.is_file():
        return path
    hub = _HUB_FILE.match(model)
    if hub and not os.environ.get("HF_HUB_OFFLINE"):
        return hub.group(1), hub.group(2)
    raise ModelLoadError(
        f"judge.model: no GGUF file at {model}"
        + (" (and HF_HUB_OFFLINE is set, so no hub download)" if hub else "")
    )


def _start(config: JudgeConfig, port: int | None = None) -> LocalServer:
    try:
        import xllamacpp
    except ImportError:
        raise ModelLoadError(
            'judge.backend = "local" needs llama.cpp: pip install "ragguard-eval[local-judge]"'
        ) from None
    source = model_source(config.model)
    params = xllamacpp.CommonParams()
    special: tuple[str, ...] = ()
    if isinstance(source, Path):
        special = special_tokens(check_model(source))
        params.model.path = str(source)
    else:
        params.model.hf_repo, params.model.hf_file = source
    key = secrets.token_hex(16)
    params.api_keys = [key]
    params.model_alias = alias(config)
    params.hostnames = ["127.0.0.1"]
    params.port = port or _free_port()
    params.n_ctx = config.n_ctx
    params.n_parallel = 1
    params.cache_prompt = True  # the slot keeps the last prompt: a shared prefix is reused
    params.cache_ram_mib = 0  # no extra host-memory prompt cache (8 GB by default)
    params.cpuparams.n_threads = config.threads
    params.cpuparams_batch.n_threads = config.threads
    params.verbosity = -1
    try:
        handle = xllamacpp.Server(params)
    except Exception as error:  # the engine reports a bad file with a RuntimeError
        cause = f"port {params.port} taken" if _taken(params.port) else "llama.cpp did not load it"
        message = f"judge.model {config.model}: {cause}: {error}"
        raise ModelLoadError(message) from None
    address = str(getattr(handle, "listening_address", "") or f"http://127.0.0.1:{params.port}")
    return LocalServer(f"{address.rstrip('/')}/v1", key, os.getpid(), handle, special)


def alias(config: JudgeConfig) -> str:
    """The model's name in requests and spans: its file name."""
    return Path(config.model).name


def _taken(port: int) -> bool:
    """Whether something listens on ``port`` (a start that failed there lost a race for it)."""
    import socket

    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
