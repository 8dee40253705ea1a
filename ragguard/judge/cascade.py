"""The cascade: the lite verdict stands where it is sure; the judge decides the rest.

After a batch's lite verdicts are drafted, and before its evaluations are assembled,
``Cascade.rule`` reads each trace's ``Draft``, picks the objective spans whose lite support
score lies in the configured band, asks the judge about each distinct (claim, evidence)
question once (deduplicated within the batch, cached across batches by content hash), and
returns a ``Ruling`` per trace, which assembly builds into the spans: ``support_source =
"judge"``, ``judge = {verdict, rationale, model, ...}`` and ``supported`` = the judge's
verdict. A question the judge could not answer keeps its lite verdict with ``judge_skipped``
saying why. Assembly computes the trace's metrics from the ruled verdicts. Nothing here
edits a draft or an evaluation, and nothing raises into the evaluation.

Answer relevance goes the same way: an answer whose lite answer relevance lies in the
answer band (``judge.answer_band``, else the answer threshold plus or minus
``ANSWER_BAND_HALF_WIDTH``) is asked about once, as a whole; the verdict goes in
``evaluation.answer_judge`` and decides ``metrics.answer_relevant``.

``judge.max_calls_per_trace`` caps the band questions of one answer (its in-band spans and
its answer band question together), the most uncertain first: nearest its threshold. The
calibration sample is exempt, so it stays uniform. ``calls`` counts the calls made by use
(``span``, ``answer``, ``sample``), for the run's summary.

With a ``CalibrationStore`` (``[calibration] source = "judge"``), a uniform random sample
of objective spans also goes to the judge, wherever its score lies; the verdicts are
recorded there, the threshold and band are refitted on them, and the band used here is the
store's. A sampled span the store already holds a verdict for, on the same text (claim,
context and passages), is not asked again.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace

from ragguard.calibration.combine import decide, margin, shipped_combination
from ragguard.calibration.state import (
    CalibrationStore,
    Sample,
    in_calibration_sample,
    sample_key,
)
from ragguard.config import JudgeConfig
from ragguard.config.judge import JudgeCombination
from ragguard.judge.client import Answer, JudgeClient
from ragguard.judge.parse import Parsed
from ragguard.judge.passages import Candidates, cut_to_fit, shown_passages
from ragguard.judge.prompts import (
    ANSWER_VERDICTS,
    SUPPORT_VERDICTS,
    answer_messages,
    new_nonce,
    support_messages,
)
from ragguard.judge.ruling import Draft, Ruling, SpanRuling
from ragguard.judge.share import ShareMatch
from ragguard.language import NAMES
from ragguard.runtime.caches import Cache
from ragguard.runtime.sampling import hash_sample
from ragguard.schema import Evaluation, JudgeVerdict, SpanEvaluation, Trace
from ragguard.scoring.checks import CONTRADICTIONS
from ragguard.scoring.interface.evidence import item_text
from ragguard.scoring.lexical import text as tx

logger = logging.getLogger(__name__)

CONTEXT_CHARS = 300
"""Answer text before a span shown to the judge, when the span leans on it ("It ...")."""


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


ANSWER_BAND_HALF_WIDTH = 0.15
"""Without ``judge.answer_band``: answers within this of the answer threshold are judged."""


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


_Picked = tuple[SpanRuling, SpanEvaluation, "SupportQuestion", str | None, float]
"""A span sent to the judge: its ruling, its lite draft, the question, its sample key, and
the support eta of its trace (the combination card reads the lite score against it)."""


class Cascade:
    """Sends the lite tier's unsure spans to the judge and rules on them with its verdicts."""

    def __init__(
        self,
        config: JudgeConfig,
        client: JudgeClient | None = None,
        calibration: CalibrationStore | None = None,
    ) -> None:
        self.config = config
        self.client = client or JudgeClient(config)
        self.calibration = calibration
        self._cache: Cache[str, Answer] = Cache(f"{__name__}.answers", config.cache_size)
        self.calls: Counter[str] = Counter()
        """Calls made, by use ("span", "answer", "sample"), and their ``tokens in``/``out``."""
        self.share = (
            ShareMatch(config.share_window, config.share_warmup) if config.share_window else None
        )
        """The window of in-band spans the judge's scores are ranked in (``judge/share.py``)."""

    def ask(
        self, questions: Sequence[SupportQuestion | AnswerQuestion]
    ) -> list[tuple[Answer, bool]]:
        """Each question's answer and whether it was served without a call of its own
        (cached, or the same question earlier in this batch). Distinct questions run
        concurrently, up to ``max_concurrency`` (one at a time for the local backend, whose
        one slot would only queue them against their deadlines)."""
        model = self.client.model_name
        keys = [q.key(model) for q in questions]
        cached = self._cache.get_many(list(dict.fromkeys(keys)))
        todo: dict[str, SupportQuestion | AnswerQuestion] = {}
        for key, question in zip(keys, questions, strict=True):
            if key not in cached:
                todo.setdefault(key, question)
        fresh: dict[str, Answer] = {}
        if todo:
            workers = 1 if self.config.backend == "local" else self.config.max_concurrency
            with ThreadPoolExecutor(workers) as pool:
                fresh = dict(zip(todo, pool.map(self._ask_one, todo.values()), strict=True))
        self._cache.put_many({k: a for k, a in fresh.items() if a.parsed is not None})
        served: set[str] = set()
        results = []
        for key in keys:
            if key in fresh and key not in served:
                served.add(key)
                results.append((fresh[key], False))
            else:
                results.append((fresh.get(key) or cached[key], True))
        return results

    def _ask_one(self, question: SupportQuestion | AnswerQuestion) -> Answer:
        if isinstance(question, AnswerQuestion):
            return self.client.ask(
                answer_messages(question.query, question.answer, question.language),
                ANSWER_VERDICTS,
            )
        score = self.client.asks_score
        answer = self.ask_support(question, score)
        if score and answer.skipped == "unparseable" and not self.client.asks_score:
            answer = self.ask_support(question, False)  # the endpoint gives no scores
        return answer

    def ask_support(self, question: SupportQuestion, score: bool) -> Answer:
        """One support question, as the score question or for the reasoned verdict."""
        messages = support_messages(
            question.claim,
            question.passages,
            question.context,
            question.language,
            nonce=question.nonce,
            score=score,
        )
        return self.client.ask(messages, SUPPORT_VERDICTS, score=score)

    def remember(self, recorded: Iterable[JudgeVerdict]) -> int:
        """Take judge scores recorded in a logged evaluation (``LoggedTrace.judge_scores``,
        which ``replay`` reads) as answers to the same questions, so they are reused rather
        than asked again: llama.cpp's probabilities move with threads and batching, and a
        replay must reproduce the verdicts it is compared with. Only scores of this
        cascade's model, on the same question text (its content hash), are taken."""
        model, found = self.client.model_name, {}
        for judge in recorded:
            if judge.score is None or judge.question is None:
                continue
            if judge.model != model or judge.verdict is None:
                continue
            parsed = Parsed(judge.verdict, judge.rationale)
            found[judge.question] = Answer(parsed, None, score=judge.score)
        self._cache.put_many(found)
        return len(found)

    @staticmethod
    def shared_nonce(questions: Sequence[SupportQuestion]) -> list[SupportQuestion]:
        """The questions about one answer with one fence nonce, absent from all their
        texts, so they share the system message (and, with the same passages, the passages)
        in the server's prompt cache."""
        if not questions:
            return []
        texts = [t for q in questions for t in (q.claim, q.context, *q.passages)]
        nonce = new_nonce(texts)
        return [replace(q, nonce=nonce) for q in questions]

    @property
    def combination(self) -> JudgeCombination | None:
        """The card that combines a judge score with the lite score: the configured one,
        else the one shipped for this judge model; None: the judge's own verdict."""
        return self.config.combination or shipped_combination(self.client.model_name)

    @property
    def band(self) -> tuple[float, float]:
        """The band in force: the calibration's once fitted, else the configured one."""
        return self.calibration.band if self.calibration else self.config.band

    def _drawn(self, trace: Trace, index: int, span: SpanEvaluation) -> bool:
        """Whether the span is in the calibration sample (drawn by trace id and index)."""
        store = self.calibration
        if store is None or span.support is None:
            return False
        return in_calibration_sample(trace.trace_id, index, store.config.sample_rate)

    def rule(self, drafts: Sequence[Draft], *, sample_only: bool = False) -> list[Ruling]:
        """What the judge decides of each trace's in-band (and calibration-sampled) spans and
        of its answer, read from the lite drafts, which stay as they are; ``sample_only``: the
        calibration sample alone (the first pass of a self-calibrating batch run)."""
        rulings = [Ruling() for _ in drafts]
        picked: list[_Picked] = []
        band = self.band
        answers = [] if sample_only else self._answer_questions(drafts)
        asked_answers: list[tuple[Ruling, AnswerQuestion]] = []
        for draft, ruling in zip(drafts, rulings, strict=True):
            trace = draft.trace
            first = len(picked)
            objective = [(i, s) for i, s in enumerate(draft.spans) if s.kind == "objective"]
            wanted: list[tuple[int, int, SpanEvaluation, bool]] = []
            for at, (index, span) in enumerate(objective):
                drawn = self._drawn(trace, index, span)
                lite_unsure = in_band(span.support, band) or span.unscored_reason
                if drawn or (lite_unsure and not sample_only):
                    wanted.append((at, index, span, drawn))  # the judge reads what lite cannot
            asked = (
                self.questions(trace, [s for _, s in objective], [at for at, *_ in wanted])
                if wanted
                else []
            )
            for (_, index, span, drawn), question in zip(wanted, asked, strict=True):
                key = None
                said = ruling.spans.setdefault(index, SpanRuling())
                if drawn and self.calibration is not None:
                    said.calibration_sample = True
                    key = sample_key(trace.trace_id, index, question.digest())
                    known = self.calibration.verdict(key)
                    if known is not None:
                        self._merge_known(said, span, known)
                        continue
                if not question.passages:
                    said.judge_skipped = "no_evidence"
                elif key is None and not hash_sample(
                    question.key(self.config.model), self.config.sample_rate, bits=32
                ):
                    said.judge_skipped = "sampled_out"
                else:
                    picked.append((said, span, question, key, draft.thresholds.eta_support))
            own = [q for d, q in answers if d is draft]
            picked[first:], kept = self._capped(draft, picked[first:], own)
            shared = self.shared_nonce([p[2] for p in picked[first:]])
            mine = zip(picked[first:], shared, strict=True)
            picked[first:] = [(r, s, q, k, e) for (r, s, _, k, e), q in mine]
            asked_answers += [(ruling, q) for q in kept]
        if picked:
            self._merge_picked(picked)
        if asked_answers:
            self._judge_answers(asked_answers)
        return rulings

    def _capped(
        self, draft: Draft, spans: list[_Picked], answers: list[AnswerQuestion]
    ) -> tuple[list[_Picked], list[AnswerQuestion]]:
        """One answer's band questions within ``max_calls_per_trace``, nearest their
        threshold first; calibration-sample spans always asked. Spans left out are marked."""
        cap = self.config.max_calls_per_trace
        band = [p for p in spans if p[3] is None]
        if cap is None or len(band) + len(answers) <= cap:
            return spans, answers
        eta_s = draft.thresholds.eta_support
        eta_a = draft.thresholds.eta_answer
        ranked: list[tuple[float, int]] = [
            (abs((p[1].support or 0.0) - eta_s), i) for i, p in enumerate(band)
        ]
        ranked += [(abs((draft.answer_relevance or 0.0) - eta_a), -1)] * len(answers)
        chosen = {i for _, i in sorted(ranked, key=lambda r: r[0])[:cap]}
        left_out = {id(p) for i, p in enumerate(band) if i not in chosen}
        for p in band:
            if id(p) in left_out:
                p[0].judge_skipped = "trace_cap"
        kept = [p for p in spans if id(p) not in left_out]
        return kept, answers if -1 in chosen else []

    def _merge_picked(self, picked: list[_Picked]) -> None:
        """Ask about the picked spans, rule on the answers, record the sampled verdicts."""
        try:
            answers = self.ask([p[2] for p in picked])
        except Exception:  # a bug here must not cost the lite evaluation
            logger.exception("ragguard judge: the cascade failed; lite verdicts kept")
            return
        samples: list[Sample] = []
        model = self.client.model_name
        for (said, span, question, key, eta), (answer, reused) in zip(picked, answers, strict=True):
            self._count("span" if key is None else "sample", answer, reused)
            self._merge(said, span, answer, reused, question.key(model), eta, key is None)
            if key is not None and answer.parsed is not None and span.support is not None:
                samples.append((key, span.support, answer.parsed.verdict))
        if self.calibration is not None:
            self.calibration.add(samples)

    def _answer_questions(self, drafts: Sequence[Draft]) -> list[tuple[Draft, AnswerQuestion]]:
        """The answers whose lite answer relevance lies in the answer band, as questions."""
        picked: list[tuple[Draft, AnswerQuestion]] = []
        for draft in drafts:
            eta = draft.thresholds.eta_answer
            if not in_band(draft.answer_relevance, answer_band(self.config, eta)):
                continue
            text = draft.trace.response[: self.config.max_evidence_chars]
            question = AnswerQuestion(draft.trace.query, text, answer_language(draft.spans))
            if hash_sample(question.key(self.config.model), self.config.sample_rate, bits=32):
                picked.append((draft, question))
        return picked

    def _judge_answers(self, picked: Sequence[tuple[Ruling, AnswerQuestion]]) -> None:
        """Ask about the answers picked, and let the verdicts decide ``answer_relevant``."""
        try:
            answers = self.ask([q for _, q in picked])
        except Exception:  # a bug here must not cost the lite evaluation
            logger.exception("ragguard judge: answer relevance failed; lite verdicts kept")
            return
        for (ruling, _), (answer, reused) in zip(picked, answers, strict=True):
            self._count("answer", answer, reused)
            if answer.called:
                ruling.answer_judge = self._verdict(answer, reused)
            if answer.parsed is not None:
                ruling.answer_relevant = answer.parsed.verdict

    def _count(self, use: str, answer: Answer, reused: bool) -> None:
        """One call made (not served from the cache or the batch) and its tokens."""
        if answer.called and not reused:
            self.calls[use] += 1
            self.calls["tokens in"] += answer.input_tokens
            self.calls["tokens out"] += answer.output_tokens

    def _merge_known(self, said: SpanRuling, span: SpanEvaluation, verdict: bool) -> None:
        """A sampled span the judge already answered (an earlier pass or process)."""
        said.judge = JudgeVerdict(
            verdict=verdict,
            rationale="the judge's verdict on this span, kept by the calibration sample",
            model=self.client.model_name,
            cached=True,
        )
        if self._held(span, verdict):
            said.judge_skipped = "check_fired"
            return
        said.supported = verdict
        said.judge_skipped = None

    def questions(
        self,
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
            found,
            list(by_id),
            texts,
            self.config.max_evidence_items,
            self.config.max_evidence_chars,
        )
        out = []
        for index in range(len(spans)) if asked is None else asked:
            span = spans[index]
            before = trace.response[max(span.start - CONTEXT_CHARS, 0) : span.start].strip()
            context = before if tx.decontextualized(span.text, before) != span.text else ""
            out.append(SupportQuestion(span.text, shown[index], context, NAMES.get(span.language)))
        return out

    def pair_question(self, claim: str, evidence: str) -> SupportQuestion:
        """The question about ``claim`` against one evidence text, cut as a trace's lone
        item is (``cut_to_fit``): for labelled pairs that come without a trace."""
        config = self.config
        shown = cut_to_fit([evidence], config.max_evidence_items, config.max_evidence_chars)
        return SupportQuestion(claim, shown)

    def question(self, trace: Trace, span: SpanEvaluation) -> SupportQuestion:
        """The question about one span asked on its own."""
        return self.questions(trace, [span])[0]

    def _verdict(self, answer: Answer, reused: bool, question: str | None = None) -> JudgeVerdict:
        return JudgeVerdict(
            verdict=None if answer.parsed is None else answer.parsed.verdict,
            rationale="" if answer.parsed is None else answer.parsed.rationale,
            model=self.client.model_name,
            score=None if answer.score is None else round(answer.score, 6),
            question=question if answer.score is not None else None,
            input_tokens=0 if reused else answer.input_tokens,
            output_tokens=0 if reused else answer.output_tokens,
            latency_ms=0.0 if reused else round(answer.latency_ms, 1),
            cached=reused,
            tokens_left_today=answer.tokens_left_today,
        )

    def _merge(
        self,
        said: SpanRuling,
        span: SpanEvaluation,
        answer: Answer,
        reused: bool,
        question: str | None = None,
        eta: float = 0.5,
        in_band: bool = False,
    ) -> None:
        if answer.called:
            said.judge = self._verdict(answer, reused, question)
        if answer.parsed is None:
            said.judge_skipped = answer.skipped
            return
        verdict = answer.parsed.verdict
        card = self.combination
        if answer.score is not None and span.support is not None and card is not None:
            if card.judge_weight == 0.0:  # the card found the judge's score no help here
                return
            if in_band and self.share is not None:  # the judge picks which, lite how many
                said_lite = bool(span.supported)
                verdict = self.share.decide(
                    said_lite, margin(card, span.support, answer.score, eta)
                )
            else:
                verdict = decide(card, span.support, answer.score, eta)  # combined
        if self._held(span, verdict):
            said.judge_skipped = "check_fired"
            return
        said.supported = verdict
        said.judge_skipped = None

    def _held(self, span: SpanEvaluation, verdict: bool) -> bool:
        """Whether a "supported" verdict meets a fired contradiction check it may not
        overrule (``may_overrule``) on a span the lite tier found unsupported."""
        allowed = self.config.may_overrule
        return (
            verdict
            and span.supported is False
            and any(r.check in CONTRADICTIONS and r.check not in allowed for r in span.reasons)
        )


def agreement(evaluation: Evaluation) -> tuple[int, int]:
    """(spans the judge decided, of which the lite verdict agreed): the lite verdict is the
    lite score against the evaluation's support eta."""
    eta = evaluation.thresholds.eta_support
    judged = [s for s in evaluation.spans if s.support_source == "judge" and s.judge]
    agreed = sum((s.support is not None and s.support >= eta) == s.supported for s in judged)
    return len(judged), agreed
