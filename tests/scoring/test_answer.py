"""Answer relevance (issue 31) on hand-written cases, through the public Guard API: a
grounded answer to another question is flagged, a right answer is kept, an abstention gets
no verdict; and the expected-answer-type rules read as intended."""

import pytest

from ragguard.metrics.answer_relevance import answer_sentences
from ragguard.scoring.lite.answer import (
    ANSWER_FEATURES,
    TYPE_MISSING_MARGIN,
    AnswerRelevanceScorer,
    asked_kind,
    gives_kind,
    lacks_asked_type,
)
from ragguard.scoring.lite.heads import Head

ITEMS = [
    {
        "id": "d1",
        "text": "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, "
        "France. It was completed in 1889 as the entrance to the World's Fair.",
    },
    {
        "id": "d2",
        "text": "The Colosseum is an elliptical amphitheatre in the centre of Rome, Italy. "
        "Berlin is the capital of Germany.",
    },
]


def evaluate(guard, query, response):
    return guard.evaluate({"trace_id": "t", "query": query, "items": ITEMS, "response": response})


def test_grounded_answer_to_another_question_is_flagged(guard):
    evaluation = evaluate(
        guard,
        "Where is the Eiffel Tower?",
        "The Colosseum is in Rome. Berlin is the capital of Germany.",
    )
    assert evaluation.metrics.support_rate == 1.0  # every sentence is grounded...
    assert evaluation.metrics.answer_relevant is False  # ...and none answers the question
    assert [s.addresses_query for s in evaluation.spans] == [False, False]
    assert 0.0 <= evaluation.metrics.answer_relevance < evaluation.thresholds.answer_relevance


def test_right_answer_is_kept(guard):
    evaluation = evaluate(
        guard, "Where is the Eiffel Tower?", "The Eiffel Tower is on the Champ de Mars in Paris."
    )
    assert evaluation.metrics.answer_relevant is True
    assert evaluation.spans[0].addresses_query is True
    assert evaluation.metrics.answer_relevance > 0.9


@pytest.mark.parametrize(
    "query", ["When was it completed?", "When was the Eiffel Tower completed?"]
)
def test_faithful_sentence_that_ignores_the_question_is_flagged(guard, query):
    evaluation = evaluate(guard, query, "It is a lattice tower in Paris.")
    assert evaluation.metrics.answer_relevant is False


def test_date_answers_when(guard):
    evaluation = evaluate(
        guard, "When was the Eiffel Tower completed?", "The Eiffel Tower was completed in 1889."
    )
    assert evaluation.metrics.answer_relevant is True


def test_partial_answer_marks_the_drifting_sentence(guard):
    evaluation = evaluate(
        guard,
        "Where is the Eiffel Tower?",
        "The Eiffel Tower is on the Champ de Mars in Paris. Berlin is the capital of Germany.",
    )
    assert [s.addresses_query for s in evaluation.spans] == [True, False]
    assert evaluation.metrics.answer_relevant is True


def test_abstention_has_no_answer_relevance(guard):
    evaluation = evaluate(guard, "Where is the Eiffel Tower?", "I don't know.")
    assert evaluation.metrics.abstained is True
    assert evaluation.metrics.answer_relevance is None
    assert evaluation.metrics.answer_relevant is None
    assert all(s.addresses_query is None for s in evaluation.spans)


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("When was it completed?", "date"),
        ("In what year did the war end?", "date"),
        ("How many people live in Paris?", "number"),
        ("how tall is the eiffel tower", "number"),
        ("Where is the Eiffel Tower?", "place"),
        ("Which country hosts the games?", "place"),
        ("Who designed the tower?", "person"),
        ("Why is the sky blue?", None),
        ("What is photosynthesis?", None),
    ],
)
def test_asked_kind(question, kind):
    assert asked_kind(question) == kind


@pytest.mark.parametrize(
    ("text", "kind", "gives"),
    [
        ("It was completed in 1889.", "date", True),
        ("It is a lattice tower in Paris.", "date", False),
        ("It is 330 metres tall.", "number", True),
        ("It is very tall.", "number", False),
        ("It stands in Paris.", "place", True),
        ("It is made of iron.", "place", False),
        ("Gustave Eiffel's company built it.", "person", True),
        ("It was built quickly.", "person", False),
    ],
)
def test_gives_kind(text, kind, gives):
    assert gives_kind(text, kind) is gives


def test_bundled_head_reads_the_features_the_scorer_computes(embedder):
    head = Head.bundled("answer_relevance_lite")
    assert head.features == ANSWER_FEATURES
    assert 0.0 < head.threshold < 1.0
    scored = AnswerRelevanceScorer(embedder).score(
        [("Where is the Eiffel Tower?", ["It is in Paris.", "Berlin is in Germany."]), ("", ["x"])]
    )
    first = scored[0]
    assert first is not None and len(first.spans) == 2 and scored[1] is None


def test_answer_sentences_skip_abstentions_and_empty_spans():
    class S:
        def __init__(self, text, kind):
            self.text, self.kind = text, kind

    assert answer_sentences([S("I don't know.", "abstention")]) == []
    mixed = [S("I am not sure.", "abstention"), S("It is in Paris.", "objective"), S("", "empty")]
    assert answer_sentences(mixed) == ["It is in Paris."]


def test_training_split_and_negatives():
    """The held-out split is fixed by the question text; each question gives its own
    answer, a swapped one from another question and off-question sentences."""
    from ragguard.train.answer import Question, examples, held_out

    texts = [f"Where is landmark number {i}?" for i in range(400)]
    share = sum(map(held_out, texts)) / len(texts)
    assert 0.12 < share < 0.28 and held_out(texts[7]) == held_out("where is  LANDMARK number 7?")
    qs = [
        Question(t, "set", own=[[f"It is in town {i}."]], off=[f"Town {i} is old."])
        for i, t in enumerate(texts[:20])
    ]
    rows = examples(qs, per_source=20, seed=1)
    kinds = {r.kind for r in rows}
    assert kinds == {"own", "swapped", "off"}
    for r in rows:
        number = r.question.split()[-1].rstrip("?")
        mine = f"town {number} " in r.sentences[0].lower().replace(".", " ")
        assert r.label == (r.kind == "own") and mine == (r.kind != "swapped")


def test_logistic_fit_separates_a_separable_feature():
    import numpy as np

    from ragguard.train.answer import make_head

    width = len(ANSWER_FEATURES)
    x = np.array([[v] + [0.0] * (width - 1) for v in np.linspace(-1, 1, 40)], np.float32)
    y = (x[:, 0] > 0).astype(int)
    head = make_head(x, y, [0])
    predicted = head.predict(x)
    assert ((predicted >= 0.5) == y.astype(bool)).all()
    assert head.layers[0].weight[1:, 0].tolist() == [0.0] * (width - 1)  # unused: weight 0


@pytest.mark.parametrize(
    ("query", "response"),
    [
        ("When was the Eiffel Tower completed?", "The Eiffel Tower is a lattice tower in Paris."),
        ("Who designed the Eiffel Tower?", "It is a wrought-iron lattice tower."),
        ("How tall is the Eiffel Tower?", "The Eiffel Tower is a lattice tower in Paris."),
        ("Where is the Colosseum?", "It is an elliptical amphitheatre."),
    ],
)
def test_an_answer_without_the_asked_type_is_off_question(guard, query, response):
    evaluation = evaluate(guard, query, response)
    eta = evaluation.thresholds.answer_relevance
    assert evaluation.metrics.answer_relevant is False
    assert evaluation.metrics.answer_relevance <= eta - TYPE_MISSING_MARGIN


@pytest.mark.parametrize(
    ("question", "answer", "lacks"),
    [
        ("When was it built?", "It is a tower in Paris.", True),
        ("When was it built?", "It was built in 1889.", False),
        ("When was it built?", "It was built during the reign of Louis XIV.", False),
        ("Who built it?", "It is a tower.", True),
        ("Who built it?", "Gustave Eiffel built it.", False),
        ("How many people visit it?", "It is popular.", True),
        ("How many people visit it?", "About seven million people visit it.", False),
        ("Where is it?", "It is made of iron.", True),
        ("Where is it?", "It stands in Paris.", False),
        ("What is it made of?", "It is in Paris.", False),  # no type decides "what"
        ("Is it old? When was it built, I wonder.", "It is a tower.", False),  # not the opener
    ],
)
def test_lacks_asked_type(question, answer, lacks):
    assert lacks_asked_type(question, answer) is lacks


def test_an_abstention_is_exempt_from_the_type_rule(guard):
    evaluation = evaluate(guard, "When was the Eiffel Tower completed?", "I don't know.")
    assert evaluation.metrics.answer_relevance is None


def test_an_answer_pronoun_takes_the_question_subject(guard):
    evaluation = guard.evaluate(
        {
            "trace_id": "t",
            "query": "Where is the Eiffel Tower?",
            "items": [
                {
                    "id": "d1",
                    "text": "The Eiffel Tower is a wrought-iron lattice tower in Paris, "
                    "completed in 1889.",
                }
            ],
            "response": "It stands in Paris.",
        }
    )
    (span,) = evaluation.spans
    assert span.text == "It stands in Paris."  # the span as written; read as the tower's
    assert span.supported is True
    assert evaluation.metrics.answer_relevant is True
