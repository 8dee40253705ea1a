"""Sentence and token embeddings with a content-hash cache: retrieved items recur across
requests, so each distinct text goes through the model once.

One forward pass gives both the pooled sentence vector and the contextual token vectors;
the lite scorers align claims to evidence with both. The backbone (``backbones.py``) is the
int8 ONNX MiniLM unless a sentence-transformers model is configured.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ragguard.errors import ModelLoadError
from ragguard.runtime import Cache
from ragguard.scoring.encoders.backbones import (
    Backbone,
    OnnxMiniLM,
    Precision,
    SentenceTransformerBackbone,
)
from ragguard.scoring.encoders.quiet import quiet_loading
from ragguard.scoring.lexical.vocabulary import STOPWORDS


@dataclass(frozen=True, slots=True)
class Encoded:
    """A text's unit sentence vector and its unit token vectors (word-pieces that carry
    letters or digits; ``content`` marks those that are not stopwords)."""

    vector: np.ndarray  # (d,) float32
    tokens: np.ndarray  # (t, d) float16
    content: np.ndarray  # (t,) bool


class TextEmbedder:
    """L2-normalized embeddings, loaded lazily once, cached by content hash.

    ``model`` is a sentence-transformers hub id or local path; None = the int8 ONNX
    MiniLM, which loads with no network and no torch. ``backbone`` replaces both with another
    family's loader (the multilingual E5, ``multilingual``), ``label`` naming it and
    ``key`` the config key that a load failure names; ``precision`` the bundled MiniLM's
    products (``embedding_precision``).
    ``cache_size`` bounds memory: an entry holds a sentence's token vectors in float16 (about
    20 KB for a 25-token sentence; none for a sentence-only backbone).
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        device: str = "cpu",
        batch_size: int = 64,
        cache_size: int = 8192,
        threads: int | None = None,
        backbone: Callable[[], Backbone] | None = None,
        label: str | None = None,
        key: str = "embedding_model",
        precision: Precision = "int8",
    ) -> None:
        self.model_name = model
        self.device = device
        self.batch_size = batch_size
        self.threads = threads
        self.precision = precision
        self._loader = backbone
        self._label = label
        self._key = key  # the config key a load failure names
        self._model: Backbone | None = None
        self._cache: Cache[bytes, Encoded] = Cache(f"{__name__}.{type(self).__name__}", cache_size)
        self._lock = threading.Lock()  # guards the lazy model load
        self._keep: np.ndarray | None = None

    @property
    def model(self) -> Backbone:
        with self._lock:
            if self._model is None:
                self._model = self._load()
            return self._model

    def _load(self) -> Backbone:
        source = self._label or self.model_name or f"bundled {self.precision} all-MiniLM-L6-v2"
        try:
            if self._loader is not None:
                model: Backbone = self._loader()  # quiets its own loading where it needs to
            elif self.model_name is None:
                model = OnnxMiniLM(threads=self.threads, precision=self.precision)
            else:
                with quiet_loading():
                    model = SentenceTransformerBackbone(
                        self.model_name, self.device, self.batch_size, self.threads
                    )
        except Exception as error:  # hub/network/path problems all surface here
            raise ModelLoadError(
                f"cannot load the sentence embedder: {error}", key=self._key, source=source
            ) from error
        self._vocabulary_masks(model)
        return model

    def _vocabulary_masks(self, model: Backbone) -> None:
        """Per vocabulary id: 0 drop (special, punctuation), 1 keep, 2 keep as content (none
        for a backbone that gives sentence vectors only)."""
        keep = np.zeros(max(model.vocabulary.values(), default=0) + 1, dtype=np.int8)
        for piece, index in model.vocabulary.items():
            word = piece.removeprefix("##")
            if index in model.special_ids or not any(c.isalnum() for c in word):
                continue
            keep[index] = 1 if piece in STOPWORDS else 2
        self._keep = keep

    @property
    def description(self) -> str:
        """The backbone, as a head's model card names it (heads depend on its features)."""
        if self._label is not None:
            return f"{self._label} (frozen)"
        if self.model_name is None:
            return "sentence-transformers/all-MiniLM-L6-v2, int8 products on ONNX Runtime (frozen)"
        return f"{self.model_name} (frozen)"

    @property
    def dim(self) -> int:
        return self.model.dim

    def encode_full(self, texts: Sequence[str]) -> list[Encoded]:
        """Sentence and token vectors; only texts not in the cache reach the model."""
        keys = [hashlib.blake2b(t.encode("utf-8"), digest_size=16).digest() for t in texts]
        cached = self._cache.get_many(keys)
        missing: dict[bytes, str] = {}
        for key, text in zip(keys, texts, strict=True):
            if key not in cached:
                missing.setdefault(key, text)
        if missing:
            fresh = dict(zip(missing, self._run(list(missing.values())), strict=True))
            self._cache.put_many(fresh)
            cached.update(fresh)
        return [cached[key] for key in keys]

    def _run(self, texts: list[str]) -> list[Encoded]:
        model = self.model
        assert self._keep is not None
        encoded = []
        for output in model.forward(texts):
            vector = output.vector / (np.linalg.norm(output.vector) + 1e-12)
            kind = self._keep[output.ids]
            tokens = output.tokens[kind > 0]
            tokens /= np.linalg.norm(tokens, axis=1, keepdims=True) + 1e-12
            encoded.append(Encoded(vector, tokens.astype(np.float16), kind[kind > 0] == 2))
        return encoded

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """(n, d) float32 unit sentence vectors."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([e.vector for e in self.encode_full(texts)])

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        return self.encode(texts)
