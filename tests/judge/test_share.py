"""In the band the judge picks which spans are supported and the lite tier how many
(``ragguard/judge/share.py``): a judge whose "yes" rate drifts with the text cannot move the
count, while its ranking still lifts the verdicts."""

from collections import deque

import numpy as np

from benchmarks.accuracy_judge import standin_judge
from ragguard import Config
from ragguard.config.judge import JudgeCombination
from ragguard.judge.share import Seen, ShareMatch, share_verdict
from ragguard.metrics.agreement import balanced_accuracy
from tests.judge.test_combine import GOLD, trace
from tests.support.judge_fixtures import judged_guard


def _drifting(rng, n, shift):
    """In-band spans: the lite verdict at chance, the judge's log-odds informative but pushed
    up by ``shift`` (a judge that says "yes" to most claims of this kind of text)."""
    labels = rng.random(n) < 0.4
    lite = rng.random(n) < 0.4
    odds = np.where(labels, 1.0, -1.0) + rng.normal(0, 1.0, n) + shift
    return labels, lite, odds


def test_until_the_warmup_is_seen_the_lite_verdict_stands():
    window = ShareMatch(window=50, warmup=4)
    lite = [True, False, True, False]
    said = [window.decide(s, not s, -9.0 if s else 9.0) for s in lite]  # a sure judge, against
    assert said == lite  # no window yet
    assert window.decide(False, True, 9.5) is True  # half the window supported: the top half
    assert window.decide(True, False, -9.5) is False


def test_where_lite_and_judge_agree_the_window_never_overturns_them():
    window = ShareMatch(window=50, warmup=4)
    for s in [True, False, True, False]:
        window.decide(s, not s, 9.0 if s else -9.0)
    assert window.decide(True, True, -100.0) is True  # lowest margin, yet both say supported
    assert window.decide(False, False, 100.0) is False


def test_a_judge_whose_yes_rate_drifts_cannot_move_the_windows_count():
    """The window alone (``share_verdict``, every span through it): the policy asks it only
    where lite and judge disagree, so there the count can move by the agreements."""
    labels, lite, odds = _drifting(np.random.default_rng(0), 600, shift=3.0)
    seen: deque[Seen] = deque(maxlen=200)
    said = []
    for s, z in zip(lite, odds, strict=True):
        decided = share_verdict(tuple(seen), 10, float(z))
        said.append(bool(s) if decided is None else decided)
        seen.append(Seen(bool(s), float(z)))
    said = np.array(said)
    fixed = odds >= 0  # the card's fixed cut-off
    assert fixed.mean() > 0.9  # the drifted judge says "yes" to nearly everything
    assert abs(said[10:].mean() - lite[10:].mean()) < 0.05  # the lite tier's count
    lite_ba = balanced_accuracy(lite, labels)
    assert balanced_accuracy(said, labels) > max(lite_ba, balanced_accuracy(fixed, labels)) + 0.1


def test_a_score_that_tells_nothing_leaves_the_lite_verdicts():
    window = ShareMatch(window=20, warmup=3)
    lite = [True, False, False, True, False, True, True, False]
    assert [window.decide(s, not s, 4.0) for s in lite] == lite  # ties keep the lite verdict


def test_the_window_is_bounded():
    window = ShareMatch(window=7, warmup=1)
    for i in range(100):
        window.decide(i % 2 == 0, i % 2 == 1, float(i))
    assert len(window) == 7


def test_the_cascade_decides_in_the_band_through_the_window(guard):
    claims = list(GOLD)
    card = JudgeCombination(model="stand-in", offset=0.0, lite_weight=0.0, judge_weight=1.0)
    eta = guard.evaluate(trace(claims[0])).thresholds.eta_support

    def spans(**share):
        with standin_judge(GOLD, flip=0.0) as server:
            config = {"backend": "openai", "base_url": server.base_url, "model": "stand-in"}
            config |= {"band": [0.0, 1.0], "answer_band": [0.0, 0.0], "combination": card}
            config |= {"may_overrule": ["number", "date", "negation", "entity"]}
            judged = judged_guard(guard, Config(judge=config | share))
            return [judged.evaluate(trace(c)).spans[0] for c in claims]

    fixed = spans(share_window=0)
    assert [s.supported for s in fixed] == [s.judge.score >= 0.5 for s in fixed]
    windowed = spans(share_warmup=4)
    lite_said = [(s.support or 0.0) >= eta for s in windowed]
    assert [s.supported for s in windowed[:4]] == lite_said[:4]  # before the window decides
    assert all(s.judge is not None and s.judge.score is not None for s in windowed)
