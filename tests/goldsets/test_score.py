"""score_references on a hand-computed trace, with a deterministic stub s(c, E).

The stub reads the UPPERCASE words of a claim (or sub-question) as its facts: the evidence
supports it (or answers it) iff every one of those words occurs in the evidence text.
"""

import json
import math
import re

import numpy as np
import pytest

from ragguard import Config, Guard, TraceValidationError
from ragguard.evaluation.evaluator import Evaluator
from ragguard.goldsets.score import pipeline_of, score_references
from ragguard.schema import Trace
from ragguard.spans import SpanAnalyzer


class FactStub:
    """Both scorer protocols: 1.0 when all UPPERCASE words of the left text are in the evidence."""

    threshold = 0.5

    def __init__(self):
        self.calls = 0

    def _score(self, texts, evidence):
        self.calls += 1
        scores = []
        for text, e in zip(texts, evidence, strict=True):
            facts = re.findall(r"\b[A-Z]{2,}\b", text)
            scores.append(float(bool(facts) and all(f in e.text for f in facts)))
        return np.array(scores)

    def support(self, claims, evidence):
        return self._score([c.text for c in claims], evidence)

    def relevance(self, queries, evidence):
        return self._score(queries, evidence)


RESPONSE = (
    "Paris has TOWER [d1]. Paris has TOWER and MUSEUM [d1][d2][d3]. "
    "Rome has COLOSSEUM [d3]. Lyon has PARK."
)
TRACE = {
    "trace_id": "cities",
    "query": "What does Paris have?",
    "pipeline": "p1",
    "items": [
        {"id": "d1", "text": "Paris has TOWER."},
        {"id": "d2", "text": "Paris has MUSEUM."},
        {"id": "d3", "text": "Berlin has ZOO."},
        {"id": "d4", "text": "Paris has TOWER again."},
    ],
    "response": RESPONSE,
    "reference": {
        "answer": "Paris has TOWER and MUSEUM.",
        "claims": ["Paris has TOWER.", "Paris has MUSEUM.", "Paris has OPERA."],
        "claim_sources": {"0": ["d1"], "1": ["d2"], "2": ["d9"]},
        "claim_weights": [2, 1, 1],
        "phrases": [["tower", "opera"], ["museum", "louvre"]],
        "subquestions": ["Where is TOWER?", "Where is MUSEUM?", "Where is ZOO?", "Where is OPERA?"],
        "category": "cities",
        "oracle_items": [
            {"id": "d1", "text": "Paris has TOWER."},
            {"id": "o1", "text": "Paris has OPERA and MUSEUM."},
        ],
    },
}
ABSTAINS = {
    "trace_id": "abstains",
    "query": "What does Rome have?",
    "metadata": {"pipeline": "p2"},
    "items": [{"id": "d1", "text": "Rome has COLOSSEUM."}],
    "response": "I cannot answer that from the documents.",
    "reference": {"phrases": [["colosseum"]], "category": "cities"},
}


@pytest.fixture()
def stubbed():
    stub = FactStub()
    config = Config(unknown_citations="flag")
    analyzer = SpanAnalyzer(config.spans, embed=None, unknown_citations="flag")
    evaluator = Evaluator(config, relevance=stub, support=stub, analyzer=analyzer)
    return Guard(config, evaluator=evaluator), stub


def scored(stubbed, *traces):
    guard, stub = stubbed
    pairs = [(Trace.parse(t), e) for t, e in zip(traces, guard.evaluate_many(traces), strict=True)]
    stub.calls = 0
    return score_references(pairs, guard.models), stub.calls


def test_mirage_by_hand(stubbed):
    # objective claims: s1 "Paris has TOWER." [d1]; s2 "... TOWER and MUSEUM." [d1][d2][d3];
    # s3 "Rome has COLOSSEUM." [d3]; s4 "Lyon has PARK." (uncited)
    (result, _), _ = scored(stubbed, TRACE, ABSTAINS)
    m = result.mirage
    assert m.info_precision == 0.25  # Eq. 7: only s1 has a single item supporting it
    assert m.info_precision_multi == 0.5  # Eq. 1: s1, and s2 against all items at once
    assert m.info_precision_reference == 0.5  # s1, s2 are in the reference answer
    assert m.info_recall == pytest.approx(2 / 3)  # TOWER, MUSEUM covered; OPERA not
    assert m.info_recall_weighted == pytest.approx(0.75)  # (1*1.5 + 1*0.75 + 0*0.75) / 3
    assert m.info_f1 == pytest.approx(2 * 0.25 * (2 / 3) / (0.25 + 2 / 3))
    assert m.cite_precision == 0.25  # single-source: best cited item supports s1 only
    assert m.cite_precision_multi == 0.5  # s1, and s2 by d1+d2+d3 together
    # Eq. 4: s1's d1 attests claim 0 (supports it); s2's d1, d2 attest claims 0, 1 (support
    # it); s3's d3 attests nothing; s4 cites nothing -> 2/4
    assert m.cite_precision_reference == 0.5
    # Eq. 5: claim 0 via d1 (s1, s2 cite it): supported; claim 1 via d2 (s2): supported;
    # claim 2's source d9 is cited by nothing: 0 -> 2/3
    assert m.cite_recall == pytest.approx(2 / 3)
    assert m.cite_f1 == pytest.approx(2 * 0.25 * (2 / 3) / (0.25 + 2 / 3))


def test_alce_by_hand(stubbed):
    (result,), _ = scored(stubbed, TRACE)
    # recall: s1 and s2 supported by their concatenated citations, s3 and s4 not: 2/4
    # precision: s1's d1 precise; s2's d1 and d2 are needed, d3 is irrelevant; s3's d3 not:
    # (1 + 2 + 0) / (1 + 3 + 1)
    assert result.alce.citation_recall == 0.5
    assert result.alce.citation_precision == pytest.approx(3 / 5)
    assert (result.alce.sentences, result.alce.citations) == (4, 5)


def test_crux_by_hand(stubbed):
    (result,), _ = scored(stubbed, TRACE)
    c = result.crux
    # items answer: d1 {TOWER}, d2 {MUSEUM}, d3 {ZOO}, d4 {TOWER}; OPERA unanswered: 3/4
    assert c.coverage_context == 0.75
    assert c.coverage_response == 0.5  # the response names TOWER and MUSEUM
    # ranking ng = 1, 1, 1, 0.5 (d4 repeats TOWER): DCG = 1 + 1/log2(3) + 1/2 + 0.5/log2(5)
    # ideal from {d1..d4, o1}: o1 (OPERA+MUSEUM: 2), d1 (1), d3 (1), then 0.5 at rank 4
    dcg = 1 + 1 / math.log2(3) + 1 / 2 + 0.5 / math.log2(5)
    ideal = 2 + 1 / math.log2(3) + 1 / 2 + 0.5 / math.log2(5)
    assert c.alpha_ndcg == pytest.approx(dcg / ideal)  # 2.346272 / 3.346272 = 0.701160
    # tokens: Z = 3 + 3 + 3 + 4 = 13, Z* = 3 + 5 = 8, Cov(Z*) = 3/4 (TOWER, MUSEUM, OPERA)
    assert c.density_context == pytest.approx(((0.75 / 13) / (0.75 / 8)) ** 0.5)
    # y: "Paris has TOWER. Paris has TOWER and MUSEUM. Rome has COLOSSEUM. Lyon has PARK." = 14
    assert c.density_response == pytest.approx(((0.5 / 14) / (0.75 / 8)) ** 0.5)
    assert c.redundant_items == ["d4"]


def test_fathoms_and_labels(stubbed):
    (result, abstains), _ = scored(stubbed, TRACE, ABSTAINS)
    assert result.fathoms.correctness == 0.5  # "tower" of (tower, opera); "museum" of 2
    assert result.fathoms.hallucination is True  # a statement below full recall
    assert abstains.fathoms.abstained is True and abstains.fathoms.hallucination is False
    assert abstains.fathoms.correctness == 0.0
    assert (result.pipeline, abstains.pipeline) == ("p1", "p2")  # field, then metadata key
    assert abstains.mirage.info_precision is None  # no objective claim to score
    assert abstains.crux.coverage_context is None  # no sub-questions


def test_one_support_call_and_one_grader_call_for_the_whole_batch(stubbed):
    other = {**TRACE, "trace_id": "cities-2", "response": "Paris has MUSEUM [d2]."}
    results, calls = scored(stubbed, TRACE, other, ABSTAINS)
    assert len(results) == 3
    assert calls == 2


def test_unknown_citation_fails_alce_and_counts_as_a_citation(stubbed):
    trace = {**TRACE, "response": "Paris has TOWER [d1][d7]."}
    (result,), _ = scored(stubbed, trace)
    assert result.alce.citation_recall == 0.0
    assert (result.alce.citation_precision, result.alce.citations) == (0.0, 2)


def test_trace_without_reference_gets_reference_free_metrics_only(stubbed):
    plain = {k: v for k, v in TRACE.items() if k != "reference"}
    (result,), _ = scored(stubbed, plain)
    assert result.mirage.info_precision == 0.25 and result.alce.citation_recall == 0.5
    assert result.mirage.info_recall is None and result.fathoms.correctness is None
    assert result.category == "-"


def test_pipeline_of_falls_back_to_a_label():
    assert pipeline_of(Trace.parse(TRACE), "nope") == "-"
    assert pipeline_of(Trace.parse(ABSTAINS), "pipeline") == "p2"


@pytest.mark.parametrize(
    ("reference", "message"),
    [
        ({"claims": ["a"], "claim_sources": {"3": ["d1"]}}, "names claim 3"),
        ({"claims": ["a", "b"], "claim_weights": [1]}, "1 weights for 2 claims"),
        ({"claims": ["a"], "claim_weights": [0]}, "not all zero"),
        ({"subquestion": ["typo"]}, "subquestion"),
    ],
)
def test_bad_references_name_the_field(reference, message):
    with pytest.raises(TraceValidationError, match=message) as error:
        Trace.parse({**TRACE, "reference": reference})
    assert "reference" in str(error.value)


def test_a_golden_trace_round_trips_with_only_its_given_fields():
    trace = Trace.parse(TRACE)
    dumped = json.loads(trace.model_dump_json())
    assert Trace.parse(dumped) == trace
    assert set(dumped["reference"]) == set(TRACE["reference"])
