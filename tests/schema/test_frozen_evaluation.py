"""An evaluation is frozen once assembled: every model reachable from ``Evaluation`` refuses
``setattr``, and every collection in it refuses append, item assignment and ``update``."""

import json
import pickle
import types
import typing
from collections.abc import Iterator

import pytest
from pydantic import BaseModel, ValidationError

from ragguard.schema import Evaluation, GuardResult, Trace
from ragguard.schema.frozen import FrozenDict

FULL = {
    "trace_id": "t1",
    "items": [{"id": "d1", "relevance": 0.9, "relevant": True, "best_frame_s": 1.5}],
    "spans": [
        {
            "text": "It opened in 1889.",
            "start": 0,
            "end": 18,
            "kind": "objective",
            "support": 0.2,
            "supported": False,
            "citations": ["d1"],
            "references": ["d1"],
            "unknown_citations": ["7"],
            "support_source": "judge",
            "judge": {"verdict": False, "rationale": "no", "model": "m", "score": 0.1},
            "reasons": [{"check": "date", "claim": "1889", "evidence": "1887", "item": "d1"}],
            "hedges": ["likely"],
            "checks_off": ["entity: no capitals"],
            "set_aside": [[3, 9]],
        }
    ],
    "metrics": {"n_unscored": {"image": 1}, "newer": {"nested": [1, {"deep": [2]}]}},
    "timing_ms": {"total": 12.0},
    "thresholds": {"support": 0.55},
    "errors": [{"field": "items[0]", "message": "unreadable"}],
    "calibration": {"source": "judge", "fitted": True, "threshold": 0.6, "band": [0.5, 0.7]},
    "answer_judge": {"verdict": True, "rationale": "answers", "model": "m"},
}


def _models_reachable(model: type[BaseModel]) -> set[type[BaseModel]]:
    """Every model class a field of ``model`` may hold, all the way down."""
    found: set[type[BaseModel]] = set()
    stack = [model]
    while stack:
        current = stack.pop()
        if current in found:
            continue
        found.add(current)
        for info in current.model_fields.values():
            stack.extend(_models_in(info.annotation))
    return found


def _models_in(annotation: object) -> Iterator[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
    for argument in typing.get_args(annotation):
        yield from _models_in(argument)


def _walk(value: object) -> Iterator[object]:
    """``value`` and everything inside it: fields, extra fields, members."""
    yield value
    if isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from _walk(getattr(value, name))
        for extra in (value.model_extra or {}).values():
            yield from _walk(extra)
    elif isinstance(value, dict):
        for member in value.values():
            yield from _walk(member)
    elif isinstance(value, tuple):
        for member in value:
            yield from _walk(member)


def _refuses(target: object, method: str, *args: object) -> bool:
    """Whether ``target.method(*args)`` is refused (a tuple has no ``append`` at all)."""
    try:
        getattr(target, method)(*args)
    except (TypeError, AttributeError, ValidationError):
        return True
    return False


def _assert_frozen(evaluation: Evaluation) -> set[type[BaseModel]]:
    seen: set[type[BaseModel]] = set()
    for value in _walk(evaluation):
        if isinstance(value, BaseModel):
            seen.add(type(value))
            for name in [*type(value).model_fields, *(value.model_extra or {})]:
                assert _refuses(value, "__setattr__", name, None), (type(value), name)
        elif isinstance(value, list | set | types.SimpleNamespace):
            pytest.fail(f"a mutable {type(value).__name__} in the evaluation: {value!r}")
        elif isinstance(value, dict):
            assert isinstance(value, FrozenDict), value
            assert _refuses(value, "update", {"x": 1})
            assert _refuses(value, "__setitem__", "x", 1)
            assert _refuses(value, "setdefault", "x", 1)
            assert _refuses(value, "pop", next(iter(value), "x"))
        elif isinstance(value, tuple):
            assert _refuses(value, "append", 1)
            assert _refuses(value, "__setitem__", 0, 1)
            assert _refuses(value, "update", {"x": 1})
    return seen


def test_every_model_and_collection_of_a_full_evaluation_refuses_changes():
    evaluation = Evaluation.model_validate(FULL)
    seen = _assert_frozen(evaluation)
    assert seen >= _models_reachable(Evaluation)  # the example reaches every model
    assert _refuses(evaluation.metrics.newer["nested"][1], "update", {"deep": ()})
    assert _refuses(evaluation.timing_ms, "update", {"request": 1.0})
    assert _refuses(evaluation.spans[0].reasons, "append", None)


def test_the_json_is_what_it_was_and_a_copy_round_trips():
    evaluation = Evaluation.model_validate(FULL)
    written = evaluation.model_dump(mode="json")
    assert written["spans"][0]["set_aside"] == [[3, 9]] and written["errors"][0]["field"]
    assert written["metrics"]["newer"] == FULL["metrics"]["newer"]
    assert json.loads(evaluation.model_dump_json()) == written
    assert Evaluation.model_validate_json(evaluation.model_dump_json()) == evaluation
    again = pickle.loads(pickle.dumps(evaluation))  # an evaluation process hands it back
    assert again == evaluation and isinstance(again.timing_ms, FrozenDict)
    _assert_frozen(again)


def test_an_assembled_evaluation_and_the_guard_result_are_frozen(guard):
    trace = Trace.parse(
        {
            "trace_id": "a1",
            "query": "When was the Eiffel Tower completed?",
            "items": [{"id": "d1", "text": "The Eiffel Tower was completed in 1889."}],
            "response": "It was completed in 1887. I think it is lovely.",
            "timing_ms": {"request": 40.0},
        }
    )
    evaluation = guard.evaluate(trace)
    _assert_frozen(evaluation)
    assert evaluation.timing_ms["request"] == 40.0  # the request's own timing travels along
    result = GuardResult(status="evaluated", evaluation=evaluation)
    assert _refuses(result, "__setattr__", "status", "failed")
