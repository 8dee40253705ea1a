"""The decision policy: a span's verdict from its lite verdict, the judge's answer, the
combination card and the share window. Pure: it reads the questions picked
(``judge/questions.py``), the answers the cascade got for them and what the window held, and
returns each trace's ``Ruling`` with the effects it needs (calls counted, calibration
samples, spans joining the window); the cascade carries those out.

In the band a judge score does not overwrite the lite verdict: the card combines the two
(``calibration.combine``). Where the card gives the judge weight and the judge's own verdict
agrees with the lite one, that verdict holds; where they disagree, the pipeline's share
window decides (``judge/share.py``), and where it cannot (warm-up, a window all one way, at
its quantile) the lite verdict stands, ``support_source = "lite"``. A calibration-sample
span is decided by the card's fixed cut-off. A judge's "supported" never flips a fired
contradiction check the config does not let it overrule (``may_overrule``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from ragguard.calibration import Sample, decide, margin
from ragguard.config import JudgeCombination, JudgeConfig
from ragguard.judge.answer import Answer, Replied
from ragguard.judge.questions import Selection, SpanAsked, SpanSettled
from ragguard.judge.ruling import Effects, Ruling, SpanRuling
from ragguard.judge.share import Seen, in_band_verdict
from ragguard.schema import JudgeVerdict, SpanEvaluation
from ragguard.scoring.checks import CONTRADICTIONS

KEPT_BY_SAMPLE = "the judge's verdict on this span, kept by the calibration sample"


@dataclass(frozen=True)
class Rules:
    """What the policy rules by, besides the answers."""

    config: JudgeConfig
    model: str
    """The judge model as its verdicts name it."""
    card: JudgeCombination | None
    """The combination card; None: the judge's own verdict decides."""

    @property
    def windowed(self) -> bool:
        return self.config.share_window > 0


@dataclass(frozen=True)
class Asked:
    """The answers got for one trace's questions; None where asking failed (a bug in the
    cascade, never raised: the lite verdicts stand)."""

    spans: Sequence[Replied] | None
    """One per ``Selection.spans``."""
    answer: Replied | None


def rule(
    rules: Rules,
    selections: Sequence[Selection],
    asked: Sequence[Asked],
    seen: Mapping[str, Sequence[Seen]],
) -> list[Ruling]:
    """Each trace's ruling, its in-band spans decided against its pipeline's window
    ``seen`` followed by the batch's earlier in-band spans of that pipeline, in order."""
    windows = {pipeline: list(spans) for pipeline, spans in seen.items()}
    return [
        _trace_ruling(rules, selection, got, windows.setdefault(selection.pipeline, []))
        for selection, got in zip(selections, asked, strict=True)
    ]


def _trace_ruling(rules: Rules, selection: Selection, asked: Asked, window: list[Seen]) -> Ruling:
    spans = {s.index: settled(rules, s) for s in selection.settled}
    calls: Counter[str] = Counter()
    samples: list[Sample] = []
    joined: list[Seen] = []
    replies = asked.spans
    if replies is None:  # asking failed: the lite verdicts stand
        replies = ()
        for one in selection.spans:
            spans[one.index] = SpanRuling(calibration_sample=one.sample_key is not None)
    for one, replied in zip(selection.spans[: len(replies)], replies, strict=True):
        _count(calls, "span" if one.sample_key is None else "sample", replied)
        decided = rule_span(rules, one, replied, window)
        spans[one.index] = decided.ruling
        if decided.joins is not None:
            joined.append(decided.joins)
            window.append(decided.joins)
            del window[: max(len(window) - rules.config.share_window, 0)]
        parsed = replied.answer.parsed
        if one.sample_key is not None and parsed is not None and one.span.support is not None:
            samples.append((one.sample_key, one.span.support, parsed.verdict))
    answer_judge = answer_relevant = None
    if asked.answer is not None:
        _count(calls, "answer", asked.answer)
        if asked.answer.answer.called:
            answer_judge = verdict_record(rules.model, asked.answer)
        if asked.answer.answer.parsed is not None:
            answer_relevant = asked.answer.answer.parsed.verdict
    effects = Effects(MappingProxyType(dict(calls)), tuple(samples), tuple(joined))
    return Ruling(MappingProxyType(spans), answer_judge, answer_relevant, effects)


@dataclass(frozen=True)
class Decided:
    """One asked span's ruling."""

    ruling: SpanRuling
    joins: Seen | None = None
    """The span as it joins the share window; None: it does not."""


def rule_span(rules: Rules, asked: SpanAsked, replied: Replied, seen: Sequence[Seen]) -> Decided:
    """One asked span's ruling, its in-band verdict read against the window ``seen``."""
    answer, span = replied.answer, asked.span
    sampled = asked.sample_key is not None
    judge = None
    if answer.called:
        judge = verdict_record(rules.model, replied, asked.question.key(rules.model))
    if answer.parsed is None:
        return Decided(SpanRuling(judge, answer.skipped, None, sampled))
    verdict, joined, card = answer.parsed.verdict, None, rules.card
    if answer.score is not None and span.support is not None and card is not None:
        if card.judge_weight == 0.0:  # the card found the judge's score no help here
            return Decided(SpanRuling(judge, None, None, sampled))
        if not sampled and rules.windowed:  # the judge picks which, lite how many
            lite = bool(span.supported)
            joined = Seen(lite, margin(card, span.support, answer.score, asked.eta))
            warmup = rules.config.share_warmup
            decided = in_band_verdict(seen, warmup, lite, verdict, joined.margin)
            if decided is None:  # the window cannot tell: the lite verdict stands
                return Decided(SpanRuling(judge, None, None, sampled), joined)
            verdict = decided
        else:
            verdict = decide(card, span.support, answer.score, asked.eta)  # combined
    if held(rules.config, span, verdict):
        return Decided(SpanRuling(judge, "check_fired", None, sampled), joined)
    return Decided(SpanRuling(judge, None, verdict, sampled), joined)


def settled(rules: Rules, span: SpanSettled) -> SpanRuling:
    """A span decided without a call: skipped, or ruled by the calibration store's verdict."""
    if span.known is None:
        return SpanRuling(judge_skipped=span.skipped, calibration_sample=span.calibration_sample)
    judge = JudgeVerdict(
        verdict=span.known, rationale=KEPT_BY_SAMPLE, model=rules.model, cached=True
    )
    if held(rules.config, span.span, span.known):
        return SpanRuling(judge, "check_fired", None, calibration_sample=True)
    return SpanRuling(judge, None, span.known, calibration_sample=True)


def held(config: JudgeConfig, span: SpanEvaluation, verdict: bool) -> bool:
    """Whether a "supported" verdict meets a fired contradiction check it may not overrule
    (``may_overrule``) on a span the lite tier found unsupported."""
    allowed = config.may_overrule
    return (
        verdict
        and span.supported is False
        and any(r.check in CONTRADICTIONS and r.check not in allowed for r in span.reasons)
    )


def verdict_record(model: str, replied: Replied, question: str | None = None) -> JudgeVerdict:
    """The judge's answer as the span records it (``question``: the question's hash, kept
    with a score so a replay can reuse it)."""
    answer, reused = replied.answer, replied.reused
    return JudgeVerdict(
        verdict=None if answer.parsed is None else answer.parsed.verdict,
        rationale="" if answer.parsed is None else answer.parsed.rationale,
        model=model,
        score=None if answer.score is None else round(answer.score, 6),
        question=question if answer.score is not None else None,
        input_tokens=0 if reused else answer.input_tokens,
        output_tokens=0 if reused else answer.output_tokens,
        latency_ms=0.0 if reused else round(answer.latency_ms, 1),
        cached=reused,
        tokens_left_today=answer.tokens_left_today,
        from_log=replied.from_log,
    )


def _count(calls: Counter[str], use: str, replied: Replied) -> None:
    """One call made (not served from the cache or the batch) and its tokens."""
    answer: Answer = replied.answer
    if answer.called and not replied.reused:
        calls[use] += 1
        calls["tokens in"] += answer.input_tokens
        calls["tokens out"] += answer.output_tokens
