"""Routing by language: English pairs stay on MiniLM, other supported languages go to the
multilingual backbone (same-language or cross-language head), and text no loaded backbone
reads is unscored with its reason, never given a verdict."""

from dataclasses import replace

import pytest

from benchmarks.accuracy_judge import standin_judge
from ragguard import Config, Evaluator
from ragguard.judge.questions import answer_language
from ragguard.metrics.summary import RunSummary
from ragguard.schema import Trace, verdict
from ragguard.scoring.lite.scorers import LiteSupportScorer
from ragguard.scoring.wiring import factory as backends
from ragguard.scoring.wiring.factory import language_policy
from ragguard.scoring.wiring.routing import (
    ACROSS,
    LanguagePolicy,
    RoutedRelevance,
    RoutedSupport,
    on_scale,
)

PASSAGE_DE = "Der Eiffelturm in Paris wurde 1889 fertiggestellt. Er ist 330 Meter hoch."
PASSAGE_EN = "The Eiffel Tower in Paris was completed in 1889. It is 330 metres tall."


def trace(response, passages, query="Wann wurde der Eiffelturm fertiggestellt?", tid="t"):
    items = [{"id": f"d{i}", "text": text} for i, text in enumerate(passages)]
    return Trace.model_validate(
        {"trace_id": tid, "query": query, "items": items, "response": response}
    )


@pytest.fixture(scope="module")
def evaluator():
    return Evaluator(Config())


@pytest.fixture(scope="module")
def without_extra():
    return Evaluator(Config.model_validate({"multilingual": {"enabled": False}}))


def test_policy_reasons_name_the_language_and_the_fix():
    missing = LanguagePolicy(False)
    assert missing.unread("en", "en") is None
    reason = missing.unread("de", "en")
    assert reason == (
        "language: de (German) not supported by the lite backbone; "
        "install ragguard-eval[multilingual]"
    )
    assert LanguagePolicy(True).unread("de", "hi") is None
    assert "not read by ragguard" in LanguagePolicy(True).unread("en", "ru")
    assert LanguagePolicy(False, limited=False).unread("ru", "de") is None  # the user's models
    routes = [
        LanguagePolicy(True).route(a, b) for a, b in [("en", "en"), ("de", "de"), ("de", "en")]
    ]
    assert routes == ["en", "same", "cross"]
    assert LanguagePolicy(False).route("de", "de") == "en"


def test_policy_follows_the_config(monkeypatch):
    assert language_policy(Config()).multilingual
    off = language_policy(Config.model_validate({"multilingual": {"enabled": False}}))
    assert not off.multilingual and "enabled = false" in off.missing
    monkeypatch.setattr(backends, "multilingual_installed", lambda: False)
    assert language_policy(Config()).missing == "install ragguard-eval[multilingual]"
    fixed = language_policy(Config.model_validate({"multilingual": {"language": "fr"}}))
    assert fixed.fixed == "fr" and fixed.language("The tower is tall.") == "fr"
    assert not language_policy(
        Config.model_validate({"support": {"backend": "nli", "model": "x"}})
    ).limited


def test_on_scale_maps_one_eta_onto_another():
    assert on_scale(0.4, 0.4, 0.6) == pytest.approx(0.6)
    assert on_scale(0.0, 0.4, 0.6) == 0.0 and on_scale(1.0, 0.4, 0.6) == pytest.approx(1.0)
    assert on_scale(0.2, 0.4, 0.6) < 0.6 < on_scale(0.5, 0.4, 0.6)


def test_the_scorers_are_routed_only_with_the_extra(evaluator, without_extra):
    assert isinstance(evaluator.models.support_scorer, RoutedSupport)
    assert isinstance(evaluator.models.relevance_scorer, RoutedRelevance)
    assert isinstance(without_extra.models.support_scorer, LiteSupportScorer)


def test_without_the_extra_a_german_answer_is_unscored_with_its_reason(without_extra):
    (evaluation,) = without_extra.evaluate_batch(
        [trace("Der Eiffelturm wurde 1925 fertiggestellt.", [PASSAGE_DE])]
    )
    (span,) = evaluation.spans
    assert span.language == "de" and verdict(span) == "unscored" and span.support is None
    assert span.unscored_reason.startswith("language: de (German) not supported")
    assert evaluation.items[0].relevance is None
    assert "language: de" in evaluation.items[0].error
    assert evaluation.metrics.n_unscored_language == 1
    assert evaluation.metrics.answer_relevance is None  # no verdict from an English head
    summary = RunSummary()
    summary.add(evaluation)
    assert "1 unscored (1 for language: de 1)" in summary.render(0.0, 0.0)


def test_without_the_extra_english_traces_are_scored_as_before(without_extra):
    (evaluation,) = without_extra.evaluate_batch(
        [trace("The Eiffel Tower was completed in 1925.", [PASSAGE_EN], "When?")]
    )
    (span,) = evaluation.spans
    assert span.language == "en" and span.unscored_reason is None
    assert verdict(span) == "unsupported"


@pytest.mark.parametrize(
    ("response", "passages"),
    [
        ("Der Eiffelturm wurde 1889 fertiggestellt.", [PASSAGE_DE]),  # German over German
        ("Der Eiffelturm wurde 1889 fertiggestellt.", [PASSAGE_EN]),  # German over English
    ],
)
def test_with_the_extra_a_german_claim_gets_a_verdict_from_e5(evaluator, response, passages):
    right, wrong = evaluator.evaluate_batch(
        [
            trace(response, passages, tid="right"),
            trace(response.replace("1889", "1925"), passages, tid="wrong"),
        ]
    )
    assert right.spans[0].unscored_reason is None and right.spans[0].support is not None
    assert right.spans[0].support > wrong.spans[0].support
    assert verdict(wrong.spans[0]) == "unsupported"
    assert right.items[0].relevance is not None


def test_a_fixed_language_reads_all_text_as_that_language():
    fixed = Evaluator(Config.model_validate({"multilingual": {"language": "de", "enabled": False}}))
    (evaluation,) = fixed.evaluate_batch(
        [trace("The Eiffel Tower was completed in 1889.", [PASSAGE_EN], "When?")]
    )
    assert evaluation.spans[0].language == "de"
    assert verdict(evaluation.spans[0]) == "unscored"


def test_the_judge_decides_the_spans_the_lite_tier_cannot_read_told_their_language():
    claim = "Der Eiffelturm wurde 1925 fertiggestellt."
    with standin_judge({claim: False}, flip=0.0) as server:
        settings = {
            "multilingual": {"enabled": False},
            "judge": {
                "backend": "openai",
                "base_url": server.base_url,
                "model": "standin",
                "api_key_env": "RAGGUARD_TEST_NO_KEY",
                "max_calls_per_minute": None,
            },
        }
        (evaluation,) = Evaluator(Config.model_validate(settings)).evaluate_batch(
            [trace(claim, [PASSAGE_EN])]
        )
        instructions = list(server.judge.instructions)
    (span,) = evaluation.spans
    assert span.support is None and span.unscored_reason is not None
    assert span.support_source == "judge" and span.supported is False
    assert verdict(span) == "unsupported" and evaluation.metrics.n_unscored_language == 0
    assert len(instructions) == 1 and "written in German" in instructions[0]
    assert answer_language(evaluation.spans) == "German"


def test_a_trained_multilingual_head_replaces_the_same_language_one(tmp_path):
    from ragguard import ModelLoadError
    from ragguard.scoring.lite.heads import Head

    bundled = Head.bundled("support_multilingual")
    own = tmp_path / "own.json"
    replace(bundled, name="own").save(own)
    config = Config.from_file(_toml(tmp_path, 'support_head = "own.json"'))
    scorer = Evaluator(config).models.support_scorer
    assert scorer.scorers["same"].head.name == "own"
    assert scorer.scorers["cross"].head.name == Head.bundled("support_crosslingual").name
    broken = Config.from_file(_toml(tmp_path, 'support_head = "missing.json"'))
    with pytest.raises(ModelLoadError) as error:
        Evaluator(broken).models.support_scorer  # noqa: B018
    assert error.value.key == "multilingual.support_head"


def _toml(folder, line):
    path = folder / "ragguard.toml"
    path.write_text(f"[multilingual]\n{line}\n")
    return path


def test_an_item_left_unread_is_named_among_the_reasons(without_extra):
    passages = ["The Louvre is a museum in Paris.", PASSAGE_DE]
    (evaluation,) = without_extra.evaluate_batch(
        [trace("The Eiffel Tower was completed in 1889.", passages, "When?")]
    )
    (span,) = evaluation.spans
    assert span.language == "en" and span.unscored_reason is None  # d0 was read
    assert verdict(span) == "unsupported"
    unread = [r for r in span.reasons if r.check == "language"]
    assert [(r.claim, r.evidence, r.item) for r in unread] == [("en", "de", "d1")]


def test_the_checks_a_span_was_not_read_by_are_listed_with_why(evaluator):
    german, across, english = evaluator.evaluate_batch(
        [
            trace("Der Eiffelturm wurde 1889 fertiggestellt.", [PASSAGE_DE], tid="de"),
            trace("Der Eiffelturm wurde 1889 fertiggestellt.", [PASSAGE_EN], tid="across"),
            trace("The Eiffel Tower was completed in 1889.", [PASSAGE_EN], "When?", tid="en"),
        ]
    )
    assert any(entry.startswith("antonym: ") for entry in german.spans[0].checks_off)
    assert ACROSS not in german.spans[0].checks_off
    assert across.spans[0].checks_off[-1] == ACROSS
    assert english.spans[0].checks_off == ()


def test_an_answer_too_short_to_tell_is_read_in_the_language_of_its_question(evaluator):
    passage = (
        "La société a été fondée en 1943 par Ingvar Kamprad. "
        "Le premier magasin IKEA a ouvert à Älmhult en 1958."
    )
    claim = "Le premier magasin IKEA a ouvert à Stockholm."
    asked = trace(claim, [passage], "Où le premier magasin IKEA a-t-il ouvert ?")
    unasked = trace(claim, [passage], "IKEA?", tid="query-too-short")
    for evaluation in evaluator.evaluate_batch([asked, unasked]):
        (span,) = evaluation.spans
        assert span.language == "fr"  # neither the span nor the answer says which
        assert verdict(span) == "unsupported" and span.reasons[0].check == "entity"


def test_a_claim_and_a_passage_too_short_to_tell_are_checked_in_the_questions_language(
    evaluator,
):
    """Neither "Elena Marsh wohnte nie in Oslo." nor its passage shows German: the checks
    read them in the question's language, where "nie" is a negation."""
    passage = "Elena Marsh wohnte von 1920 bis 1931 in Oslo."
    claim = "Elena Marsh wohnte nie in Oslo."
    (evaluation,) = evaluator.evaluate_batch([trace(claim, [passage], "Wo wohnte Elena Marsh?")])
    (span,) = evaluation.spans
    assert span.language == "de"
    assert verdict(span) == "unsupported" and span.reasons[0].check == "negation"


def test_an_item_whose_language_cannot_be_told_is_read_in_the_traces_language(evaluator):
    """A short Spanish passage full of names is undetermined: it is read as Spanish (the
    question's language), so the pair takes the same-language head and its date check
    vetoes, not the cross-language head, which vetoes numbers only."""
    passage = "La empresa Blue Fern se registró en Valencia en 1994."
    assert LanguagePolicy(True).language(passage) == "en"  # undetermined: no sign of Spanish
    answer = "La empresa Blue Fern se registró en 1866."
    (evaluation,) = evaluator.evaluate_batch(
        [trace(answer, [passage], "¿En qué año se registró la empresa Blue Fern?")]
    )
    span = evaluation.spans[0]
    assert verdict(span) == "unsupported"
    assert [r.check for r in span.reasons][:1] == ["date"]
    assert ACROSS not in span.checks_off
