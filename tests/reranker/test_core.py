"""The RS reranker and the score cache it shares with the evaluator (framework-free; the
LangChain compressor and LlamaIndex postprocessor are tested with their frameworks in
test_adapters_*.py)."""

import pytest

from ragguard.live.shared import with_score_cache
from ragguard.reranker import Reranker
from ragguard.schema import Item, Trace
from ragguard.scoring.interface.evidence import Evidence
from ragguard.scoring.wiring.cache import CachedRelevanceScorer

QUERY = "Where is the Eiffel Tower?"
ITEMS = [
    Item(id="berlin", text="Berlin is the capital and largest city of Germany."),
    Item(id="rome", text="The Colosseum is an ancient amphitheatre in the centre of Rome."),
    Item(id="paris", text="The Eiffel Tower is a wrought-iron lattice tower in Paris, France."),
    Item(id="paris-again", text="The Eiffel Tower, a wrought-iron lattice tower, is in Paris."),
    Item(id="photo", image="/nonexistent/tower.jpg"),
]


@pytest.fixture(scope="module")
def cached(guard):
    return with_score_cache(guard)


def test_items_are_ordered_by_relevance_and_unscorable_ones_kept_last(cached):
    ranked = Reranker(guard=cached).rerank(QUERY, ITEMS)
    order = [ITEMS[r.index].id for r in ranked]
    assert set(order[:2]) == {"paris", "paris-again"} and order[-1] == "photo"
    scores = [r.relevance for r in ranked]
    assert scores[:-1] == sorted(scores[:-1], reverse=True) and scores[-1] is None


def test_filtering_by_the_calibrated_threshold_and_top_n(cached):
    eta = cached.models.relevance_scorer.threshold
    kept = Reranker(guard=cached, min_relevance="calibrated").rerank(QUERY, ITEMS[:4])
    assert {ITEMS[r.index].id for r in kept} == {"paris", "paris-again"}
    assert all(r.relevance >= eta for r in kept)
    assert len(Reranker(guard=cached, top_n=1).rerank(QUERY, ITEMS)) == 1


def test_mmr_diversity_skips_a_near_duplicate(cached):
    plain = Reranker(guard=cached, top_n=2).rerank(QUERY, ITEMS[:4])
    diverse = Reranker(guard=cached, top_n=2, diversity=0.7).rerank(QUERY, ITEMS[:4])
    assert {ITEMS[r.index].id for r in plain} == {"paris", "paris-again"}
    assert ITEMS[diverse[0].index].id in {"paris", "paris-again"}
    assert ITEMS[diverse[1].index].id in {"berlin", "rome"}


def test_reranked_scores_are_not_recomputed_by_the_evaluator(cached):
    cache = cached.models.relevance_scorer
    assert isinstance(cache, CachedRelevanceScorer)
    Reranker(guard=cached).rerank(QUERY, ITEMS[:4])
    misses = cache.misses
    trace = Trace(trace_id="t", query=QUERY, items=ITEMS[:4], response="It is in Paris.")
    evaluation = cached.evaluate(trace)
    assert cache.misses == misses  # every (query, item) pair came from the cache
    assert [i.relevance is not None for i in evaluation.items] == [True] * 4


def test_the_cache_answers_repeats_and_keys_by_content_not_id(guard):
    cache = CachedRelevanceScorer(guard.models.relevance_scorer)
    evidence = [Evidence("a", ITEMS[2].text), Evidence("b", ITEMS[0].text)]
    first = cache.relevance([QUERY, QUERY], evidence)
    renamed = [Evidence("other-id", ITEMS[2].text)]
    assert cache.relevance([QUERY], renamed).tolist() == first[:1].tolist()
    assert (cache.hits, cache.misses) == (1, 2)
    assert first.tolist() == guard.models.relevance_scorer.relevance([QUERY] * 2, evidence).tolist()


def test_bad_options_name_the_option():
    with pytest.raises(ValueError, match="diversity"):
        Reranker(diversity=1.5)
    with pytest.raises(ValueError, match="top_n"):
        Reranker(top_n=0)
