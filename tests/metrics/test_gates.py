"""Release gates read RunSummary's stable keys: the numbers the summary prints."""

import pytest

from ragguard.errors import GateError
from ragguard.metrics.gates import Gate
from ragguard.metrics.summary import MEANS, METRICS, RunSummary
from ragguard.schema import Evaluation, JudgeVerdict, Metrics, SpanEvaluation
from tests.support.frozen_evaluations import with_spans


def evaluation(trace_id: str, supported: list[bool], relevance: float) -> Evaluation:
    spans = [
        SpanEvaluation(
            text=f"claim {i}",
            start=i,
            end=i + 1,
            kind="objective",
            support=0.9 if ok else 0.1,
            supported=ok,
        )
        for i, ok in enumerate(supported)
    ]
    metrics = Metrics(
        mean_relevance=relevance,
        hallucination=not all(supported),
        support_rate=sum(supported) / len(supported),
        answer_relevance=0.8,
        answer_relevant=True,
    )
    return Evaluation(
        trace_id=trace_id, items=[], spans=spans, metrics=metrics, thresholds={"support": 0.5}
    )


def summary_of(*evaluations: Evaluation) -> RunSummary:
    summary = RunSummary()
    for one in evaluations:
        summary.add(one)
    return summary


def test_the_values_are_the_numbers_the_summary_prints():
    summary = summary_of(evaluation("a", [True, False], 0.7), evaluation("b", [True], 0.4))
    values = summary.values()
    assert set(values) == set(METRICS)
    text = summary.render(0.0, 0.0)
    for key, label in MEANS.items():
        shown = "n/a" if values[key] is None else f"{values[key]:.3f}"
        assert f"{label}  " in text and shown in text.split(f"{label}  ")[1].splitlines()[0]
    assert values["unsupported_span_rate"] == pytest.approx(1 / 3)
    assert values["hallucination_rate"] == 0.5 and values["citation_precision"] is None
    # no judge-labelled sample: the printed interval is no bound to gate on
    assert "uncorrected" in text and values["unsupported_span_rate.high"] is None
    result = Gate.parse("unsupported_span_rate.high=0.5", "over").check(values)
    assert result.passed is None and "no judge-labelled sample" in result.describe()


def test_the_bounds_of_a_corrected_rate_are_the_printed_ones():
    sampled = evaluation("a", [True, False, True, True], 0.7)
    judged = {"calibration_sample": True}
    sampled = with_spans(
        sampled,
        {
            i: judged | {"judge": JudgeVerdict(verdict=s.supported, rationale="", model="stand-in")}
            for i, s in enumerate(sampled.spans[:3])
        },
    )
    values = summary_of(sampled).values()
    low, high = values["unsupported_span_rate.low"], values["unsupported_span_rate.high"]
    assert low is not None and high is not None
    text = summary_of(sampled).render(0.0, 0.0)
    assert f"95% CI {low:.3f}-{high:.3f}; corrected by 3 judge-labelled spans" in text


def test_a_gate_over_fails_above_its_bound_and_names_value_and_bound():
    values = summary_of(evaluation("a", [True, False], 0.7)).values()
    failed = Gate.parse("unsupported_span_rate=0.2", "over").check(values)
    assert failed.passed is False and failed.describe() == "FAILED (0.500 > 0.2)"
    assert Gate.parse("unsupported_span_rate=0.5", "over").check(values).passed  # not above
    assert Gate.parse("mean_relevance=0.8", "under").check(values).passed is False
    assert Gate.parse("mean_relevance = 0.7", "under").check(values).passed


def test_close_values_get_the_decimals_that_tell_them_apart():
    result = Gate("over", "hallucination_rate", 0.3).check({"hallucination_rate": 0.30004})
    assert result.describe() == "FAILED (0.30004 > 0.3)"


def test_a_metric_the_run_did_not_compute_is_no_pass():
    values = summary_of(evaluation("a", [True], 0.7)).values()
    result = Gate.parse("citation_precision=0.5", "under").check(values)
    assert result.passed is None and "did not compute citation_precision" in result.describe()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("unsupported_rate=0.2", "did you mean 'unsupported_span_rate'"),
        ("hallucination-rate=0.2", "did you mean 'hallucination_rate'"),
        ("hallucination_rate", "write METRIC=VALUE"),
        ("hallucination_rate=high", "'high' is not a number"),
        ("hallucination_rate=nan", "finite"),
    ],
)
def test_a_malformed_gate_is_an_error_naming_the_nearest_metric(text, message):
    with pytest.raises(GateError, match=message):
        Gate.parse(text, "over")
