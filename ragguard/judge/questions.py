"""What the judge is asked: the questions about a trace's spans and its answer, built from the
lite draft alone. Nothing here calls the judge, reads a cache or keeps state.

``select`` picks, for one trace's draft, the objective spans whose lite support score lies in
the band (or that the lite tier could not read), and those drawn into the calibration
sample; builds their questions (``support_questions``: the items each span is shown,
``judge/passages.py``); settles the ones that need no call (no evidence, sampled out, over
``max_calls_per_trace``, a sampled span the store already holds a verdict for); and gives the
rest one fence nonce (``with_shared_nonce``).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from ragguard.calibration import in_calibration_sample, sample_key
from ragguard.config import JudgeConfig
from ragguard.judge.passages import Candidates, cut_to_fit, shown_passages
from ragguard.judge.prompts import new_nonce
from ragguard.judge.ruling import Draft
from ragguard.language import NAMES
from ragguard.runtime import hash_sample
from ragguard.schema import JudgeSkip, OtelOrigin, SpanEvaluation, Trace
from ragguard.scoring.interface import item_text
from ragguard.scoring.lexical import decontextualized

CONTEXT_CHARS = 300
"""Answer text before a span shown to the judge, when the span leans on it ("It ...")."""

ANSWER_BAND_HALF_WIDTH = 0.15
"""Without ``judge.answer_band``: answers within this of the answer threshold are judged."""


@dataclass(frozen=True)
class SupportQuestion:
    """One claim and the passages it is checked against."""

    claim: str
    passages: tuple[str, ...]
    context: str = ""
    language: str | None = None
    """The claim's language by name ("German"), stated in the prompt."""
    nonce: str | None = field(default=None, compare=False)
    """The fence nonce shared by the questions about one answer (not part of the key)."""

    def key(self, model: str) -> str:
        """The content hash that caches and deduplicates the judge's answer."""
        stated = [self.language] if self.language else []
        payload = json.dumps([model, self.claim, self.context, self.passages, *stated])
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()

    def digest(self) -> str:
        """The hash of what the judge reads, whichever judge: the calibration sample stores
        a verdict under it, so a stored verdict never decides other text."""
        return self.key("")


@dataclass(frozen=True)
class AnswerQuestion:
    """A question and the whole answer given to it."""

    query: str
    answer: str
    language: str | None = None
    """The answer's language by name, stated in the prompt."""

    def key(self, model: str) -> str:
        stated = [self.language] if self.language else []
        payload = json.dumps(["answer", model, self.query, self.answer, *stated])
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def answer_band(config: JudgeConfig, eta: float) -> tuple[float, float]:
    """The answer-relevance scores the judge decides."""
    if config.answer_band is not None:
        return config.answer_band
    return max(0.0, eta - ANSWER_BAND_HALF_WIDTH), min(1.0, eta + ANSWER_BAND_HALF_WIDTH)


def in_band(score: float | None, band: tuple[float, float]) -> bool:
    return score is not None and band[0] <= score <= band[1]


def answer_language(spans: Sequence[SpanEvaluation]) -> str | None:
    """The name of the language most of an answer's spans are in (None without spans)."""
    counts = Counter(s.language for s in spans if s.kind != "empty")
    return NAMES.get(counts.most_common(1)[0][0]) if counts else None


def support_questions(
    config: JudgeConfig,
    trace: Trace,
    spans: Sequence[SpanEvaluation],
    asked: Sequence[int] | None = None,
) -> list[SupportQuestion]:
    """The questions about the ``spans`` of one answer at ``asked`` (all when None)
    (``judge/passages.py``): each span with the items it may be supported by (those it
    names, else all), the lite tier's best evidence and its cited items first; one set of
    items for the answer where it holds every span's own, in retrieval order, so that the
    answer's questions share the prompt's prefix; the items cut to share the question's
    evidence budget (``cut_to_fit``). The items are chosen among all ``spans``, so a span
    is asked the same question whichever others are asked with it (the calibration
    sample's first pass, replay under another band)."""
    by_id = {item.id: item for item in trace.items}
    texts = {i: item_text(item) or "" for i, item in by_id.items()}
    found: list[Candidates] = []
    for span in spans:
        allowed = [i for i in span.references or list(by_id) if texts.get(i)]
        first = [span.evidence_id] if span.evidence_id in allowed else []
        leading = dict.fromkeys([*first, *(c for c in span.citations if c in allowed)])
        ordered = tuple(dict.fromkeys([*leading, *allowed]))
        found.append(Candidates(ordered, len(leading), bool(span.references)))
    shown = shown_passages(
        found, list(by_id), texts, config.max_evidence_items, config.max_evidence_chars
    )
    out = []
    for index in range(len(spans)) if asked is None else asked:
        span = spans[index]
        before = trace.response[max(span.start - CONTEXT_CHARS, 0) : span.start].strip()
        context = before if decontextualized(span.text, before) != span.text else ""
        out.append(SupportQuestion(span.text, shown[index], context, NAMES.get(span.language)))
    return out


def pair_question(config: JudgeConfig, claim: str, evidence: str) -> SupportQuestion:
    """The question about ``claim`` against one evidence text, cut as a trace's lone item is
    (``cut_to_fit``): for labelled pairs that come without a trace."""
    shown = cut_to_fit([evidence], config.max_evidence_items, config.max_evidence_chars)
    return SupportQuestion(claim, shown)


def with_shared_nonce(questions: Sequence[SupportQuestion]) -> list[SupportQuestion]:
    """The questions about one answer with one fence nonce, absent from all their texts, so
    they share the system message (and, with the same passages, the passages) in the
    server's prompt cache."""
    if not questions:
        return []
    nonce = new_nonce([t for q in questions for t in (q.claim, q.context, *q.passages)])
    return [replace(q, nonce=nonce) for q in questions]


@dataclass(frozen=True)
class SpanAsked:
    """One span whose question goes to the judge."""

    index: int
    """The span's position in the draft."""
    span: SpanEvaluation
    """Its lite verdict."""
    question: SupportQuestion
    sample_key: str | None
    """Its key in the calibration sample; None: asked because it is in the band."""
    eta: float
    """The trace's support eta (the combination card reads the lite score against it)."""


@dataclass(frozen=True)
class SpanSettled:
    """One span decided without a call: why, or the verdict the calibration store holds."""

    index: int
    span: SpanEvaluation
    skipped: JudgeSkip | None = None
    known: bool | None = None
    """The store's verdict on this sampled span (an earlier pass or process)."""
    calibration_sample: bool = False


@dataclass(frozen=True)
class Selection:
    """What is asked about one trace, and what is settled without asking."""

    spans: tuple[SpanAsked, ...] = ()
    settled: tuple[SpanSettled, ...] = ()
    answer: AnswerQuestion | None = None
    pipeline: str = ""
    """Whose share window decides its in-band spans (``pipeline_of``)."""


def pipeline_of(trace: Trace) -> str:
    """The pipeline a trace came from: the ``service.name`` ``serve`` recorded in its
    ``otel`` origin; "" for any other trace (a process evaluates one pipeline's)."""
    origin = OtelOrigin.of(trace)
    return "" if origin is None else origin.service


@dataclass(frozen=True)
class Picking:
    """What decides which spans of a batch are asked."""

    config: JudgeConfig
    band: tuple[float, float]
    sample_rate: float | None = None
    """The calibration sample's rate; None: no calibration sample."""
    known: Callable[[str], bool | None] = lambda key: None
    """The calibration store's verdict under a sample key, if it holds one."""
    sample_only: bool = False
    """Only the calibration sample (the first pass of a self-calibrating batch run)."""


def select(picking: Picking, draft: Draft) -> Selection:
    """One trace's questions: its unsure and sampled spans, and its answer when in band."""
    config, trace = picking.config, draft.trace
    objective = [(i, s) for i, s in enumerate(draft.spans) if s.kind == "objective"]
    wanted: list[_Wanted] = []
    for at, (index, span) in enumerate(objective):
        drawn = _drawn(picking, trace, index, span)
        unsure = in_band(span.support, picking.band) or bool(span.unscored_reason)
        if drawn or (unsure and not picking.sample_only):  # the judge reads what lite cannot
            wanted.append(_Wanted(at, index, span, drawn))
    spans = [s for _, s in objective]
    positions = [w.position for w in wanted]
    questions = support_questions(config, trace, spans, positions) if wanted else []
    asked: list[SpanAsked] = []
    settled: list[SpanSettled] = []
    eta = draft.thresholds.eta_support
    for one, question in zip(wanted, questions, strict=True):
        index, span, drawn = one.index, one.span, one.drawn
        key = sample_key(trace.trace_id, index, question.digest()) if drawn else None
        known = None if key is None else picking.known(key)
        if known is not None:
            settled.append(SpanSettled(index, span, known=known, calibration_sample=True))
        elif not question.passages:
            settled.append(SpanSettled(index, span, "no_evidence", calibration_sample=drawn))
        elif key is None and not hash_sample(
            question.key(config.model), config.sample_rate, bits=32
        ):
            settled.append(SpanSettled(index, span, "sampled_out"))
        else:
            asked.append(SpanAsked(index, span, question, key, eta))
    answer = None if picking.sample_only else _answer_question(config, draft)
    return _capped(config, draft, Selection(tuple(asked), tuple(settled), answer))


@dataclass(frozen=True)
class _Wanted:
    """An objective span the judge is to read."""

    position: int
    """Among the trace's objective spans."""
    index: int
    """Among all its spans."""
    span: SpanEvaluation
    drawn: bool
    """In the calibration sample."""


def _drawn(picking: Picking, trace: Trace, index: int, span: SpanEvaluation) -> bool:
    """Whether the span is in the calibration sample (drawn by trace id and index)."""
    if picking.sample_rate is None or span.support is None:
        return False
    return in_calibration_sample(trace.trace_id, index, picking.sample_rate)


def _answer_question(config: JudgeConfig, draft: Draft) -> AnswerQuestion | None:
    """The answer as a question, when its lite answer relevance lies in the answer band."""
    if not in_band(draft.answer_relevance, answer_band(config, draft.thresholds.eta_answer)):
        return None
    text = draft.trace.response[: config.max_evidence_chars]
    question = AnswerQuestion(draft.trace.query, text, answer_language(draft.spans))
    return (
        question if hash_sample(question.key(config.model), config.sample_rate, bits=32) else None
    )


def _capped(config: JudgeConfig, draft: Draft, chosen: Selection) -> Selection:
    """One answer's band questions within ``max_calls_per_trace``, nearest their threshold
    first; calibration-sample spans always asked; the others settled as ``trace_cap``. The
    questions kept share one fence nonce."""
    cap = config.max_calls_per_trace
    band = [s for s in chosen.spans if s.sample_key is None]
    answers = [] if chosen.answer is None else [chosen.answer]
    left_out: set[int] = set()
    if cap is not None and len(band) + len(answers) > cap:
        eta_s, eta_a = draft.thresholds.eta_support, draft.thresholds.eta_answer
        ranked = [(abs((s.span.support or 0.0) - eta_s), n) for n, s in enumerate(band)]
        ranked += [(abs((draft.answer_relevance or 0.0) - eta_a), -1)] * len(answers)
        kept = {n for _, n in sorted(ranked, key=lambda r: r[0])[:cap]}
        left_out = {band[n].index for n in range(len(band)) if n not in kept}
        answers = answers if -1 in kept else []
    spans = [s for s in chosen.spans if s.index not in left_out]
    capped = [SpanSettled(s.index, s.span, "trace_cap") for s in band if s.index in left_out]
    nonced = with_shared_nonce([s.question for s in spans])
    return Selection(
        tuple(replace(s, question=q) for s, q in zip(spans, nonced, strict=True)),
        (*chosen.settled, *capped),
        answers[0] if answers else None,
        pipeline_of(draft.trace),
    )
