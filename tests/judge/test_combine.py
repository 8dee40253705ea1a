"""The cascade combines a judge score with the lite score instead of letting it overwrite
the lite verdict: a judge that says "yes" whatever the truth (the stand-in's bias mode) gets
no weight and cannot make the cascade worse than the lite tier, while an informative judge
is given weight. Trained on one half of the claims, reported on the other."""

import numpy as np

from benchmarks.accuracy_judge import standin_judge
from ragguard import Config
from ragguard.calibration.combine import decide, fit_combination, render, shipped_combination
from ragguard.config.judge import JudgeCombination
from ragguard.metrics.agreement import balanced_accuracy
from tests.support.judge_fixtures import judged_guard

PASSAGE = (
    "The Eiffel Tower is a wrought-iron lattice tower in Paris, France. It was designed by "
    "the engineering company of Gustave Eiffel and built from 1887 to 1889 as the entrance "
    "to the 1889 World's Fair. It is 330 metres tall. It was the tallest man-made structure "
    "in the world until the Chrysler Building in New York City was finished in 1930. About "
    "seven million people visit it every year, and it has three levels for visitors."
)
TRUE = [
    "The Eiffel Tower is in Paris.",
    "It is a wrought-iron lattice tower.",
    "It was built from 1887 to 1889.",
    "It is 330 metres tall.",
    "It was designed by the company of Gustave Eiffel.",
    "It was the entrance to the 1889 World's Fair.",
    "It has three levels for visitors.",
    "About seven million people visit it every year.",
    "It was the tallest man-made structure until 1930.",
    "The Chrysler Building was finished in 1930.",
]
FALSE = [
    "The Eiffel Tower is in Lyon.",
    "It is made of reinforced concrete.",
    "It was built from 1901 to 1905.",
    "It is 120 metres tall.",
    "It was designed by Alexandre Dumas.",
    "It was built for the 1900 Olympic Games.",
    "It has nine levels for visitors.",
    "About forty people visit it every year.",
    "It is still the tallest structure in the world.",
    "The Chrysler Building is in Chicago.",
]
GOLD = {claim: True for claim in TRUE} | {claim: False for claim in FALSE}


def trace(claim):
    return {
        "trace_id": str(abs(hash(claim))),
        "query": "Tell me about the Eiffel Tower.",
        "items": [{"id": "d1", "text": PASSAGE}],
        "response": claim,
    }


def scores(guard, claims, **judge):
    """(lite scores, judge scores, verdicts) of ``claims``, every span judged."""
    with standin_judge(GOLD, **judge) as server:
        config = {
            "backend": "openai",
            "base_url": server.base_url,
            "model": "stand-in",
            "band": [0.0, 1.0],
            "answer_band": [0.0, 0.0],
            "may_overrule": ["number", "date", "negation", "entity"],
        }
        judged = judged_guard(guard, Config(judge=config))
        spans = [judged.evaluate(trace(c)).spans[0] for c in claims]
    return (
        np.array([s.support for s in spans]),
        np.array([s.judge.score for s in spans]),
        np.array([s.supported for s in spans]),
    )


def test_a_judge_biased_to_yes_gets_no_weight_and_the_cascade_keeps_the_lite_verdict(guard):
    train, held = TRUE[::2] + FALSE[::2], TRUE[1::2] + FALSE[1::2]
    eta = guard.evaluate(trace(TRUE[0])).thresholds.eta_support
    lite, judge, _ = scores(guard, train, bias=0.9)
    labels = np.array([GOLD[c] for c in train])
    fitted = fit_combination(lite, judge, labels, eta, model="stand-in", source="test")
    assert fitted.kept_lite and fitted.card.judge_weight == 0.0

    lite_held, judge_held, own = scores(guard, held, bias=0.9)
    truth = np.array([GOLD[c] for c in held])
    combined = np.array(
        [decide(fitted.card, s, j, eta) for s, j in zip(lite_held, judge_held, strict=True)]
    )
    lite_ba = balanced_accuracy(lite_held >= eta, truth)
    assert balanced_accuracy(combined, truth) >= lite_ba
    assert balanced_accuracy(own, truth) < lite_ba  # the judge's own verdict would cost
    with standin_judge(GOLD, bias=0.9) as server:  # the card in the config decides
        config = {"backend": "openai", "base_url": server.base_url, "model": "stand-in"}
        config |= {"band": [0.0, 1.0], "answer_band": [0.0, 0.0], "combination": fitted.card}
        judged = judged_guard(guard, Config(judge=config))
        spans = [judged.evaluate(trace(c)).spans[0] for c in held]
    assert [s.supported for s in spans] == list(combined) == list(lite_held >= eta)
    assert all(s.support_source == "lite" and s.judge.score is not None for s in spans)


def test_an_informative_judge_is_given_weight():
    rng = np.random.default_rng(0)
    labels = rng.random(200) < 0.5
    lite = np.clip(0.5 + rng.normal(0, 0.1, 200), 0.01, 0.99)  # in the band: at chance
    judge = np.where(labels, rng.uniform(0.45, 0.99, 200), rng.uniform(0.01, 0.55, 200))
    fitted = fit_combination(lite, judge, labels, 0.5, model="m", source="test")
    assert not fitted.kept_lite and fitted.card.judge_weight > 0.5
    scores = fitted.card.balanced_accuracy
    assert scores["combined"] > scores["lite"] + 0.2


def test_the_shipped_card_applies_to_the_model_it_names_only():
    card = shipped_combination("qwen2.5-coder-1.5b-instruct-q4_k_m.gguf")
    assert card is None or card.model in "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
    assert shipped_combination("some-other-model.gguf") is None
    lite_only = JudgeCombination(model="m")
    assert decide(lite_only, 0.6, 0.01, 0.5) and not decide(lite_only, 0.4, 0.99, 0.5)


def test_a_combination_that_gives_the_judge_no_weight_keeps_the_lite_verdict():
    """The lite threshold sits too high in the band, and the judge leans the wrong way: the
    refitted combination wins under CV by re-thresholding the lite score alone (its judge
    weight is 0). That is the threshold fit's job, and a win that moves with the spans nearest
    eta, which a CPU's int8 kernels move: the card keeps the lite verdict and says why."""
    low = [0.1, 0.15, 0.2, 0.25, 0.3, 0.33, 0.36, 0.38] * 2
    near = [0.44, 0.45, 0.46, 0.47, 0.48, 0.49] * 2
    lite = low + near + [0.6, 0.65, 0.7, 0.75] * 2
    labels = [False] * len(low) + [True] * (len(lite) - len(low))
    noise = np.random.default_rng(0).uniform(0.05, 0.95, len(lite))
    judge = [0.5 * u if label else 0.5 + 0.5 * u for u, label in zip(noise, labels, strict=True)]

    fit = fit_combination(lite, judge, labels, 0.5, model="contrary", source="test")

    scores = fit.card.balanced_accuracy
    assert scores["combined"] > scores["lite"]  # the combination did win under CV
    assert fit.kept_lite and fit.judge_unweighted
    assert (fit.card.offset, fit.card.lite_weight, fit.card.judge_weight) == (0.0, 1.0, 0.0)
    assert "kept the lite verdict: the combination fitted on every pair gives the judge no " in (
        render(fit)
    )
