"""The committed multilingual evaluation sets read as ragguard's labelled format, stay
parallel to English, and carry the claim kinds ``benchmarks/multilingual.py`` reports; its
metric code gives the figures worked out by hand on a tiny set."""

import importlib.util
import json
import math
import sys
from pathlib import Path

import pytest

from ragguard.calibration.labels import LabelledTrace, read_labelled

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "benchmarks" / "data" / "multilingual"
LANGUAGES = ("en", "de", "es", "fr", "hi")
KINDS = {"paraphrase", "number", "date", "negation", "entity"}


def _benchmark():
    spec = importlib.util.spec_from_file_location(
        "benchmarks_multilingual", ROOT / "benchmarks" / "multilingual.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


bench = _benchmark()


def _read(code: str) -> list[LabelledTrace]:
    rows = list(read_labelled(DATA / f"{code}.jsonl"))
    errors = [row for row in rows if not isinstance(row, LabelledTrace)]
    assert not errors, errors[:3]
    return rows  # type: ignore[return-value]


def _ids(rows: list[LabelledTrace]) -> list[tuple[str, str]]:
    return [(r.trace.model_extra["passage_id"], r.trace.model_extra["claim_id"]) for r in rows]


@pytest.mark.parametrize("code", LANGUAGES)
def test_each_set_reads_as_one_span_labelled_traces_parallel_to_english(code: str) -> None:
    rows = _read(code)
    assert len(rows) >= 40
    assert _ids(rows) == _ids(_read("en"))
    for row in rows:
        extra = row.trace.model_extra
        passage_id, claim_id = extra["passage_id"], extra["claim_id"]
        assert row.trace.trace_id == f"{passage_id}-{claim_id}-{code}"
        assert extra["language"] == code
        assert row.trace.response_spans == [row.trace.response]
        assert len(row.trace.items) == 1 and row.trace.items[0].text
        assert row.trace.query.strip() and row.trace.response.strip()


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_kind_appears_and_only_paraphrases_are_supported(code: str) -> None:
    rows = _read(code)
    kinds = [r.trace.model_extra["kind"] for r in rows]
    assert set(kinds) == KINDS
    assert all(kinds.count(kind) >= 8 for kind in KINDS)
    for row, kind in zip(rows, kinds, strict=True):
        assert row.labels == ((kind == "paraphrase"),), row.trace.trace_id


def test_passages_are_shared_within_a_language_and_differ_across_languages() -> None:
    """One passage text per passage id and language, so the cross-lingual rows swap a whole
    passage; a passage copied from English into another file would show here."""
    passages = {
        code: {r.trace.model_extra["passage_id"]: r.trace.items[0].text for r in _read(code)}
        for code in LANGUAGES
    }
    for code in LANGUAGES:
        rows = _read(code)
        assert all(passages[code][_ids([r])[0][0]] == r.trace.items[0].text for r in rows)
        if code != "en":
            assert not set(passages[code].values()) & set(passages["en"].values())


def _result(kind: str, verdict: str, support: float | None, reason: str | None = None):
    pair = bench.Pair("p", kind, kind, "de", "de", "q", "passage", "claim", kind == "paraphrase")
    return bench.Result(pair, verdict, support, reason)


def test_the_metrics_leave_unscored_spans_out_and_count_them_apart() -> None:
    results = [
        _result("paraphrase", "supported", 0.9),
        _result("paraphrase", "unsupported", 0.4),
        _result("number", "unsupported", 0.2),
        _result("negation", "supported", 0.6),
        _result("entity", "unscored", None, "language: de not supported"),
        _result("date", "empty", None),
    ]
    row = bench.metrics(results)
    # recall on paraphrases 1/2, on edits 1/2; AUC: 3 of the 4 (paraphrase, edit) orders right
    assert row["pairs"] == 6 and row["scored"] == 4
    assert row["balanced_acc"] == pytest.approx(0.5)
    assert row["auc"] == pytest.approx(0.75)
    assert row["unscored"] == pytest.approx(1 / 6) and row["set_aside"] == pytest.approx(1 / 6)
    assert row["errors"] == 0.0
    assert row["kept_paraphrase"] == pytest.approx(0.5)
    assert row["caught_number"] == 1.0 and row["caught_negation"] == 0.0
    assert math.isnan(row["caught_entity"]) and math.isnan(row["caught_date"])
    assert bench.reasons(results) == {
        "unscored: language: de not supported": 1,
        "empty: (no reason given)": 1,
    }


def test_cross_lingual_pairs_put_each_claim_against_the_other_languages_passage() -> None:
    sets = {code: bench.read_set(DATA / f"{code}.jsonl") for code in ("en", "hi")}
    crossed = bench.cross_sets(sets)
    assert set(crossed) == {("hi", "en"), ("en", "hi")}
    english = {p.passage_id: p.passage for p in sets["en"]}
    hindi = {p.passage_id: p.passage for p in sets["hi"]}
    for pair, original in zip(crossed[("hi", "en")], sets["hi"], strict=True):
        assert pair.claim == original.claim and pair.supported == original.supported
        assert pair.passage == english[pair.passage_id] and pair.passage_language == "en"
    for pair, original in zip(crossed[("en", "hi")], sets["en"], strict=True):
        assert pair.claim == original.claim and pair.passage == hindi[pair.passage_id]
    trace = crossed[("hi", "en")][0].trace()
    assert trace.response_spans == [trace.response] and trace.trace_id.endswith("-hi-en")


def test_the_benchmark_scores_a_passage_with_the_lite_evaluator(guard) -> None:
    pairs = [p for p in bench.read_set(DATA / "en.jsonl") if p.passage_id == "ikea"]
    results = bench.evaluate(guard.evaluator, pairs, "ikea")
    assert [r.pair for r in results] == pairs
    assert {r.verdict for r in results} <= {"supported", "unsupported"}
    assert all(r.support is not None and 0.0 <= r.support <= 1.0 for r in results)
    row = bench.metrics(results)
    assert row["pairs"] == row["scored"] == 6 and row["unscored"] == 0.0
    assert 0.0 <= row["balanced_acc"] <= 1.0


def test_the_command_writes_its_rows_as_json(tmp_path) -> None:
    out = tmp_path / "ml.json"
    bench.main(["--languages", "fr", "--json", str(out), "--markdown"])
    report = json.loads(out.read_text())
    (row,) = report["rows"]
    assert row["claims"] == row["passage"] == "fr" and row["pairs"] == 72
    assert row["scored"] + round(72 * (row["unscored"] + row["set_aside"] + row["errors"])) == 72
