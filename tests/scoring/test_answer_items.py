"""Answer relevance reads the trace's items (``ITEM_FEATURES``): a sentence of the
question's own passage that does not answer it is flagged when the passage holds a sentence
closer to the question; a paraphrased answer is kept; a trace without items is still scored,
by the same head with the item features at their neutral value."""

import pytest

from ragguard.scoring.lite.answer import ITEM_FEATURES, AnswerRelevanceScorer, item_sentences
from ragguard.scoring.lite.heads import Head

MAKE, DRONES = "How do bees make honey?", "What do drones do in a bee colony?"
HONEY = (
    "Honey bees live in colonies ruled by a single queen. "
    "Worker bees collect nectar from flowers and store it in wax cells. "
    "Bees turn nectar into honey by evaporating its water and adding enzymes. "
    "Beekeepers harvest the honey in late summer. "
    "A strong colony can hold up to 60,000 bees. "
    "Honey never spoils because its sugar content is too high for bacteria to grow. "
    "Drones are male bees whose only role is to mate with a queen. "
    "Honey has been found in ancient Egyptian tombs, still edible."
)


def evaluate(guard, query, response, items=(HONEY,)):
    trace = {
        "trace_id": "t",
        "query": query,
        "response": response,
        "items": [{"id": f"d{i}", "text": text} for i, text in enumerate(items)],
    }
    return guard.evaluate(trace)


@pytest.mark.parametrize(
    ("query", "response"),
    [
        (MAKE, "Drones are male bees whose only role is to mate with a queen."),
        (MAKE, "Honey has been found in ancient Egyptian tombs, still edible."),
        (
            DRONES,
            "Bees turn nectar into honey by evaporating its water and adding enzymes.",
        ),
    ],
)
def test_a_passage_sentence_beside_the_question_is_flagged(guard, query, response):
    """Grounded (quoted from the passage) and about bees, but the passage answers the
    question with another sentence: off-question. No answer-type rule decides these
    ("how", "what"): the head does, from the items."""
    evaluation = evaluate(guard, query, response)
    assert evaluation.spans[0].supported is True
    assert evaluation.metrics.answer_relevant is False
    assert evaluation.spans[0].addresses_query is False


@pytest.mark.parametrize(
    ("query", "response"),
    [
        (MAKE, "Bees make honey out of nectar, drying it and mixing in enzymes."),
        (
            "Why does honey not spoil?",
            "Bacteria cannot grow in honey because it holds so much sugar.",
        ),
        (DRONES, "Male bees, the drones, exist only to mate with the queen."),
        (
            MAKE,
            "Bees turn nectar into honey by evaporating its water and adding enzymes.",
        ),
    ],
)
def test_an_answer_in_other_words_than_the_passage_is_kept(guard, query, response):
    """A generated answer paraphrases; that the passage says it in other words (closer to
    the question) does not make it off-question."""
    assert evaluate(guard, query, response).metrics.answer_relevant is True


def test_a_trace_without_items_is_still_scored(guard):
    kept = evaluate(guard, "How do bees make honey?", "Bees make honey from nectar.", items=())
    off = evaluate(guard, "How do bees make honey?", "The Colosseum is in Rome.", items=())
    assert kept.metrics.answer_relevance is not None and kept.metrics.answer_relevant is True
    assert off.metrics.answer_relevance is not None and off.metrics.answer_relevant is False


def test_the_item_sentences_are_those_relevance_reads():
    """Of an item longer than eight sentences, those sharing the question's words, as
    relevance chooses them (so their vectors are in the cache); each sentence once."""
    long = " ".join(f"Sentence {i} is about topic {i}." for i in range(20)) + " Bees make honey."
    read = item_sentences(MAKE, [HONEY, HONEY, long, "  "])
    assert read[:8] == [s.strip() for s in HONEY.replace(". ", ".\n").splitlines()]
    assert read[8:] == ["Bees make honey."]


def test_a_head_without_item_features_reads_no_items(embedder):
    """The multilingual head was trained before the item features and does not name them:
    it is read on its own six, and a trace's items are not encoded for it."""
    head = Head.bundled("answer_relevance_multilingual")
    assert not set(ITEM_FEATURES) & set(head.features)
    scorer = AnswerRelevanceScorer(embedder, head)
    pair = [(MAKE, ["Drones are male bees."])]
    with_items, without = scorer.score(pair, items=[[HONEY]]), scorer.score(pair)
    assert not scorer.reads_items
    assert with_items[0] is not None and without[0] is not None
    assert with_items[0].score == without[0].score


def test_the_bundled_head_reads_the_items():
    assert set(ITEM_FEATURES) <= set(Head.bundled("answer_relevance_lite").features)


def test_items_in_another_language_are_not_read_by_the_english_head(guard):
    """A German passage is read by relevance with another encoder, if at all: the English
    head scores the English answer as with no items (no MiniLM encoding of German)."""
    german = (
        "Honigbienen leben in Völkern, die von einer einzigen Königin regiert werden. "
        "Arbeiterinnen sammeln Nektar und machen daraus Honig, indem sie Wasser verdunsten."
    )
    answer = "Drones are male bees whose only role is to mate with a queen."
    alone = evaluate(guard, MAKE, answer, items=())
    beside = evaluate(guard, MAKE, answer, items=(german,))
    assert beside.metrics.answer_relevance == alone.metrics.answer_relevance
