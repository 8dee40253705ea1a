"""The review queue: a uniform sample over objective spans in one pass, and the flagged
design's order."""

import copy
import random
from collections import Counter

from scipy.stats import chi2

from ragguard.review import Reservoir, draw, open_source
from ragguard.review.source import Line, Record, quick_evaluation
from tests.support.review_fixtures import live_records, write_log


def _record(trace_id, claims, supported=True):
    """A logged answer of ``claims`` objective spans (offsets into its response)."""
    texts = [f"Claim {trace_id} {i} holds." for i in range(claims)]
    response = " ".join(texts)
    spans, at = [], 0
    for text in texts:
        start = response.index(text, at)
        at = start + len(text)
        spans.append(
            {
                "text": text,
                "start": start,
                "end": at,
                "kind": "objective",
                "support": 0.3 if not supported else 0.8,
                "supported": supported,
            }
        )
    evaluation = {"trace_id": trace_id, "spans": spans}
    trace = {
        "trace_id": trace_id,
        "query": "q?",
        "items": [{"id": "d1", "text": "x"}],
        "response": response,
    }
    return {**trace, "evaluation": evaluation}


def test_the_sample_is_uniform_over_spans_not_traces(tmp_path):
    records = [_record(f"one-{i}", 1) for i in range(50)]
    records += [_record(f"ten-{i}", 10) for i in range(50)]
    random.Random(7).shuffle(records)
    log = write_log(tmp_path / "mixed.jsonl", records)
    assert all(quick_evaluation(line) for line in log.read_bytes().splitlines(keepends=True))
    source = open_source(str(log))
    counts = Counter()
    draws, size = 300, 20
    for seed in range(draws):
        sample = draw(source, size, seed=seed, progress=False)
        assert len(sample.drawn) == size and sample.population.spans == 550
        counts.update((d.record.evaluation["trace_id"], d.span) for d in sample.drawn)
    expected = draws * size / 550
    spans = [(r["trace_id"], i) for r in records for i in range(len(r["evaluation"]["spans"]))]
    statistic = sum((counts[s] - expected) ** 2 / expected for s in spans)
    assert chi2.sf(statistic, len(spans) - 1) > 0.01, statistic
    ten = sum(c for (t, _), c in counts.items() if t.startswith("ten"))
    assert abs(ten / (draws * size) - 500 / 550) < 0.02  # a 10-claim trace: 10 times as likely


def test_the_reservoir_keeps_every_item_when_fewer_than_its_size():
    reservoir = Reservoir(5, random.Random(1))
    record = Record("x", None, {"spans": []})
    assert reservoir.offer(Line("x line 1", 1, {"spans": []}, None, record), [0, 1, 2]) is True
    assert [d.span for d in reservoir.held] == [0, 1, 2]


def test_flagged_puts_unsupported_spans_first_lowest_support_first(tmp_path):
    records = [_record(f"ok-{i}", 2) for i in range(10)]
    records += [_record(f"bad-{i}", 1, supported=False) for i in range(3)]
    records[-1]["evaluation"]["spans"][0]["support"] = 0.1
    source = open_source(str(write_log(tmp_path / "log.jsonl", records)))
    sample = draw(source, 6, design="flagged", seed=3, progress=False)
    ids = [d.record.evaluation["trace_id"] for d in sample.drawn]
    assert ids[0] == "bad-2" and set(ids[:3]) == {"bad-0", "bad-1", "bad-2"}
    assert all(i.startswith("ok-") for i in ids[3:]) and len(ids) == 6
    assert sample.population.flagged == 3


def test_a_trace_logged_again_is_shown_from_its_last_record(tmp_path):
    first = _record("again", 1)
    later = copy.deepcopy(first)
    later["evaluation"]["spans"][0]["support"] = 0.9
    source = open_source(str(write_log(tmp_path / "log.jsonl", [first, later])))
    sample = draw(source, 5, seed=1, progress=False)
    supports = [d.record.evaluation["spans"][d.span]["support"] for d in sample.drawn]
    assert supports == [0.9] and sample.population.superseded == 1


def test_rotated_backups_are_read_oldest_first(tmp_path):
    records = live_records()
    log = write_log(tmp_path / "ragguard.jsonl", records[:10])
    write_log(tmp_path / "ragguard.jsonl.1", records[10:20])
    write_log(tmp_path / "ragguard.jsonl.2", records[20:30])
    source = open_source(str(log))
    assert [p.name for p in source.files] == [
        "ragguard.jsonl.2",
        "ragguard.jsonl.1",
        "ragguard.jsonl",
    ]
    sample = draw(source, 1000, seed=0, progress=False)
    assert sample.population.records == 30 and len(sample.drawn) == sample.population.spans
