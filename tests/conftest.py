import os

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

if os.environ.get("RAGGUARD_TEST_PRECISION") == "fp32":
    # Runs the suite on the fp32 products: their vectors differ from this machine's int8
    # ones about as much as another CPU's int8 kernels do (docs/models.md, "Across CPUs"),
    # so an assertion that sits inside that variance fails here too.
    from ragguard.scoring.encoders import embeddings as _embeddings

    _init = _embeddings.TextEmbedder.__init__

    def _fp32_init(self, *args, **kwargs):
        _init(self, *args, **kwargs)
        self.precision = "fp32"

    _embeddings.TextEmbedder.__init__ = _fp32_init


@pytest.fixture(scope="session")
def guard():
    """One Guard with the offline lite models for the whole run (models load once)."""
    from ragguard import Guard

    return Guard()


@pytest.fixture(scope="session")
def embedder(guard):
    return guard.models.embedder


@pytest.fixture
def memory():
    """An OpenTelemetry tracer provider recording into memory, and its exporter."""
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    spans = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(spans))
    yield provider, spans
    provider.shutdown()


@pytest.fixture(scope="session")
def judge_server():
    """A real OpenAI-compatible llama.cpp server with SmolLM2-135M on loopback, shared by
    the judge tests (started on first use, stopped at the end)."""
    from tests.support.llama_server import running_server

    with running_server() as server:
        yield server
