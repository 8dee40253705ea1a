"""Production backends load real checkpoints through ragguard's own loading code.

The checkpoints here are tiny random-weight BERTs built at test time (no download is
possible on the project's machines): these tests prove the plumbing, never quality.
"""

import numpy as np
import pytest

from ragguard import Config, Guard, ModelLoadError
from ragguard.scoring.hub.transformers_backends import (
    CrossEncoderRelevanceScorer,
    NLISupportScorer,
    entailment_index,
)
from ragguard.scoring.interface.evidence import Claim, Evidence
from tests.support.tiny_models import save_tiny_bert

LONG = " ".join(f"Sentence number {i} talks about the tower." for i in range(80))


def tiny_classifier(path, labels):
    from transformers import BertForSequenceClassification

    return save_tiny_bert(
        path,
        BertForSequenceClassification,
        num_labels=len(labels),
        id2label=dict(enumerate(labels)),
        label2id={label: i for i, label in enumerate(labels)},
    )


@pytest.fixture(scope="module")
def nli_path(tmp_path_factory):
    return tiny_classifier(
        tmp_path_factory.mktemp("nli"), ["contradiction", "neutral", "entailment"]
    )


@pytest.fixture(scope="module")
def reranker_path(tmp_path_factory):
    return tiny_classifier(tmp_path_factory.mktemp("ce"), ["score"])


def test_entailment_label_is_found_by_name_or_binary_convention():
    assert entailment_index({0: "CONTRADICTION", 1: "NEUTRAL", 2: "ENTAILMENT"}) == 2
    assert entailment_index({0: "not_supported", 1: "supported"}) == 0  # "support" matches first
    assert entailment_index({0: "LABEL_0", 1: "LABEL_1"}) == 1
    with pytest.raises(ModelLoadError):
        entailment_index({0: "a", 1: "b", 2: "c"})


def test_nli_scorer_returns_probabilities_and_takes_the_best_chunk(nli_path):
    scorer = NLISupportScorer(nli_path, max_length=64, batch_size=4)
    claims = [Claim("The tower is in Paris."), Claim("It is tall.", context="The tower is old.")]
    evidence = [Evidence("a", "The tower is in Paris."), Evidence("b", LONG)]
    scores = scorer.support(claims, evidence)
    assert scores.shape == (2,) and ((scores >= 0) & (scores <= 1)).all()
    tokenizer = scorer._load()[0]
    chunks = scorer._chunks(tokenizer, LONG, "It is tall.")
    assert len(chunks) > 1  # long evidence is cut to fit max_length ...
    per_chunk = scorer._probabilities(chunks, ["The tower is old. It is tall."] * len(chunks))
    assert scores[1] == pytest.approx(per_chunk.max(), abs=1e-4)  # ... and the best chunk wins


def test_cross_encoder_scores_are_in_unit_interval(reranker_path):
    scorer = CrossEncoderRelevanceScorer(reranker_path, max_length=64, threshold=0.3)
    scores = scorer.relevance(
        ["where is the tower?"] * 2, [Evidence("a", "Paris."), Evidence("b", "Bread.")]
    )
    assert scores.shape == (2,) and ((scores > 0) & (scores < 1)).all()
    assert scorer.threshold == 0.3


def test_guard_runs_end_to_end_on_configured_production_backends(nli_path, reranker_path, embedder):
    from ragguard.evaluation.evaluator import Evaluator

    config = Config.model_validate(
        {
            "relevance": {"backend": "cross-encoder", "model": reranker_path, "max_length": 64},
            "support": {"backend": "nli", "model": nli_path, "max_length": 64, "threshold": 0.4},
        }
    )
    guard = Guard(config, evaluator=Evaluator(config, embedder=embedder))
    evaluation = guard.evaluate(
        {
            "trace_id": "t",
            "query": "Where is the tower?",
            "items": [{"id": "d1", "text": "The tower is in Paris."}],
            "response": "The tower is in Paris [1].",
        }
    )
    span = evaluation.spans[0]
    assert 0 <= span.support <= 1 and span.supported == (span.support >= 0.4)
    thresholds = dict(evaluation.thresholds)
    assert 0 < thresholds.pop("answer_relevance") < 1  # the bundled answer head's
    assert thresholds == {"relevance": 0.5, "support": 0.4}


def test_a_missing_model_is_a_clear_load_error(tmp_path):
    scorer = NLISupportScorer(str(tmp_path / "no-such-model"))
    with pytest.raises(ModelLoadError, match="no-such-model"):
        scorer.support([Claim("x")], [Evidence("a", "y")])


def test_non_lite_backend_without_a_model_is_rejected(embedder):
    from ragguard.scoring.wiring.factory import build_support

    with pytest.raises(ValueError, match=r"support\.model"):
        build_support(Config.model_validate({"support": {"backend": "nli"}}).support, embedder)


def test_bundled_embedder_is_normalized_and_cached(embedder):
    first = embedder.encode(["a tower in Paris", "bread"])
    again = embedder.encode(["bread", "a tower in Paris"])
    np.testing.assert_allclose(np.linalg.norm(first, axis=1), 1.0, rtol=1e-5)
    np.testing.assert_array_equal(again[0], first[1])
