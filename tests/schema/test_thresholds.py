"""``Evaluation.thresholds`` is typed, and its JSON is what the string-keyed dict wrote: the
same keys in the same order, an absent threshold left out, and old log lines still read."""

import pytest

from ragguard.schema import Evaluation, Metrics, Thresholds

OLD = ['{"relevance":0.5,"support":0.4321,"answer_relevance":0.37}', '{"support":0.6}', "{}"]
"""``thresholds`` as logs written before the type carried it."""


@pytest.mark.parametrize("written", OLD)
def test_an_old_log_line_reads_and_writes_back_byte_identical(written):
    blank = Evaluation(trace_id="t", items=[], spans=[], metrics=Metrics()).model_dump_json()
    line = blank.replace('"thresholds":{}', f'"thresholds":{written}')
    assert line != blank or written == "{}"
    read = Evaluation.model_validate_json(line)
    assert isinstance(read.thresholds, Thresholds)
    assert read.model_dump_json() == line


def test_absent_thresholds_read_as_the_default_and_are_not_written():
    thresholds = Evaluation.model_validate_json(
        Evaluation(
            trace_id="t", items=[], spans=[], metrics=Metrics(), thresholds={"support": 0.6}
        ).model_dump_json()
    ).thresholds
    assert (thresholds.relevance, thresholds.support) == (None, 0.6)
    assert (thresholds.eta_relevance, thresholds.eta_support, thresholds.eta_answer) == (
        0.5,
        0.6,
        0.5,
    )
    assert thresholds.present() == {"support": 0.6}
    assert thresholds.model_dump(mode="json") == {"support": 0.6}


def test_thresholds_are_frozen():
    thresholds = Thresholds(support=0.4)
    with pytest.raises(ValueError, match="frozen"):
        thresholds.support = 0.9  # type: ignore[misc]
