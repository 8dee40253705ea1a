"""The docs pages written from code or from a run are what their generator writes today,
and the configuration reference has something to say about every setting."""

import importlib.util
import re

import pytest
from pydantic import BaseModel

from ragguard.config import Config
from tests.support.docs_blocks import ROOT

spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "scripts" / "gen_docs.py")
assert spec and spec.loader
gen_docs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen_docs)


def leaf_settings(model: type[BaseModel], prefix: str = ""):
    for key, field in model.model_fields.items():
        section = field.annotation
        if isinstance(section, type) and issubclass(section, BaseModel):
            yield from leaf_settings(section, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", field


def test_every_setting_has_a_docstring():
    settings = dict(leaf_settings(Config))
    assert len(settings) > 90
    assert [key for key, field in settings.items() if not (field.description or "").strip()] == []


def test_the_configuration_reference_is_generated_from_the_code():
    page = (ROOT / "docs" / "config-reference.md").read_text(encoding="utf-8")
    assert page == gen_docs.config_reference(), "run python3 scripts/gen_docs.py"
    for key, _ in leaf_settings(Config):
        assert f"| `{key.rsplit('.', 1)[-1]}` |" in page, key


DECIMAL = re.compile(r"-?\d+\.\d+")


def test_the_benchmark_tables_are_those_of_a_fresh_run():
    """Word for word (rows, labels and counts), and every figure within what another CPU's
    int8 kernels move: a near-tie that swaps one example of a three-example row moves its
    mean by a third (0.125 to 0.458 under noise the size of that variance)."""
    page = (ROOT / "docs" / "reference-metrics.md").read_text(encoding="utf-8")
    fresh = gen_docs.metrics_page(page)
    assert DECIMAL.sub("#", page) == DECIMAL.sub("#", fresh), "run python3 scripts/gen_docs.py"
    pairs = zip(DECIMAL.findall(page), DECIMAL.findall(fresh), strict=True)
    assert [
        (float(a), float(b))
        for a, b in pairs
        if float(a) != pytest.approx(float(b), rel=0.15, abs=0.34)
    ] == [], "run python3 scripts/gen_docs.py"
    assert "InfoF1" in page and "hybrid-rerank" in page
