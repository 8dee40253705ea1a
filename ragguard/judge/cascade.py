"""The cascade: the lite verdict stands where it is sure; the judge decides the rest.

After a batch's lite verdicts are drafted, and before its evaluations are assembled,
``Cascade.rule`` reads each trace's ``Draft`` and works in three steps:

1. what to ask (``judge/questions.py``, pure): the objective spans whose lite support score
   lies in the band, the calibration sample's spans, the answer when its lite answer
   relevance lies in the answer band, within ``max_calls_per_trace``;
2. the calls (here): each distinct question asked once (deduplicated within the batch,
   cached across batches by content hash), distinct questions concurrently;
3. the verdicts (``judge/policy.py``, pure): each trace's ``Ruling``, which assembly builds
   into the spans, with the effects the ruling needs (calls counted, calibration samples,
   spans joining the share window), carried out here.

Nothing here edits a draft or an evaluation, and nothing raises into the evaluation.
``calls`` counts the calls made by use (``span``, ``answer``, ``sample``), for the run's
summary. With a ``CalibrationStore`` (``[calibration] source = "judge"``) the band used is
the store's, and the sample's verdicts are recorded there.
"""

from __future__ import annotations

import logging
from collections import Counter, OrderedDict
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor

from ragguard.calibration import CalibrationStore, shipped_combination
from ragguard.config import JudgeCombination, JudgeConfig
from ragguard.judge.answer import Answer, Replied
from ragguard.judge.client import JudgeClient
from ragguard.judge.parse import Parsed
from ragguard.judge.policy import Asked, Rules, rule
from ragguard.judge.prompts import (
    ANSWER_VERDICTS,
    SUPPORT_VERDICTS,
    answer_messages,
    support_messages,
)
from ragguard.judge.questions import (
    AnswerQuestion,
    Picking,
    Selection,
    SpanAsked,
    SupportQuestion,
    select,
)
from ragguard.judge.ruling import Draft, Ruling
from ragguard.judge.share import ShareWindows
from ragguard.runtime import Cache, map_in_pool
from ragguard.schema import Evaluation, JudgeVerdict

logger = logging.getLogger(__name__)

Question = SupportQuestion | AnswerQuestion

RECORDED_TRACES = 4096
"""Traces whose recorded judge scores a cascade holds until they are evaluated (a replay
hands each trace's on as it is read, a batch or two ahead): past this the oldest go."""


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
            ShareWindows(config.share_window, config.share_warmup) if config.share_window else None
        )
        """Each pipeline's window of in-band spans the judge's scores are ranked in
        (``judge/share.py``)."""
        self._recorded: OrderedDict[str, Mapping[int, JudgeVerdict]] = OrderedDict()
        """A replay's recorded judge scores by trace id, then span index (``remember``)."""

    @property
    def combination(self) -> JudgeCombination | None:
        """The card that combines a judge score with the lite score: the configured one,
        else the one shipped for this judge model; None: the judge's own verdict."""
        return self.config.combination or shipped_combination(self.client.model_name)

    @property
    def band(self) -> tuple[float, float]:
        """The band in force: the calibration's once fitted, else the configured one."""
        return self.calibration.band if self.calibration else self.config.band

    def rule(self, drafts: Sequence[Draft], *, sample_only: bool = False) -> list[Ruling]:
        """What the judge decides of each trace's in-band (and calibration-sampled) spans and
        of its answer, read from the lite drafts, which stay as they are; ``sample_only``: the
        calibration sample alone (the first pass of a self-calibrating batch run)."""
        store = self.calibration
        picking = Picking(
            self.config,
            self.band,
            None if store is None else store.config.sample_rate,
            (lambda key: None) if store is None else store.verdict,
            sample_only,
        )
        selections = [select(picking, draft) for draft in drafts]
        take = self._recorded.get if sample_only else self._recorded.pop
        asked = self._ask_all(selections, [take(d.trace.trace_id, {}) for d in drafts])
        rules = Rules(self.config, self.client.model_name, self.combination)
        if self.share is None:
            rulings = rule(rules, selections, asked, {})
        else:
            with self.share.lock:  # one batch's in-band verdicts against its windows
                seen = self.share.seen(s.pipeline for s in selections)
                rulings = rule(rules, selections, asked, seen)
                for chosen, ruling in zip(selections, rulings, strict=True):
                    self.share[chosen.pipeline].extend(ruling.effects.window)
        samples = [s for r in rulings for s in r.effects.samples]
        if store is not None:
            store.add(samples)
        for ruling in rulings:
            self.calls.update(ruling.effects.calls)
        return rulings

    def _ask_all(
        self, selections: Sequence[Selection], recorded: Sequence[Mapping[int, JudgeVerdict]]
    ) -> list[Asked]:
        """The answers to every selection's questions: the spans' (those a replay recorded
        for the same span and question taken from the record), then the answers'. A bug
        while asking costs the judge's verdicts (logged), never the lite evaluation."""
        model = self.client.model_name
        logged = [
            [logged_reply(scores, one, model) for one in chosen.spans]
            for chosen, scores in zip(selections, recorded, strict=True)
        ]
        spans = self._asked_safely(
            [
                one.question
                for chosen, got in zip(selections, logged, strict=True)
                for one, reply in zip(chosen.spans, got, strict=True)
                if reply is None
            ],
            "the cascade",
        )
        answers = self._asked_safely(
            [c.answer for c in selections if c.answer is not None], "answer relevance"
        )
        found: list[Asked] = []
        for chosen, got in zip(selections, logged, strict=True):
            mine = None
            if spans is not None:
                asked_now = got.count(None)
                fresh, spans = iter(spans[:asked_now]), spans[asked_now:]
                mine = [reply or next(fresh) for reply in got]
            answer = None
            if chosen.answer is not None and answers is not None:
                answer, answers = answers[0], answers[1:]
            found.append(Asked(mine, answer))
        return found

    def _asked_safely(self, questions: Sequence[Question], what: str) -> list[Replied] | None:
        if not questions:
            return []
        try:
            return self.ask(questions)
        except Exception:  # a bug here must not cost the lite evaluation
            logger.exception("ragguard judge: %s failed; lite verdicts kept", what)
            return None

    def ask(self, questions: Sequence[Question]) -> list[Replied]:
        """Each question's answer and whether it was served without a call of its own
        (cached, or the same question earlier in this batch). Distinct questions run
        concurrently, up to ``max_concurrency`` (one at a time for the local backend, whose
        one slot would only queue them against their deadlines)."""
        model = self.client.model_name
        keys = [q.key(model) for q in questions]
        cached = self._cache.get_many(list(dict.fromkeys(keys)))
        todo: dict[str, Question] = {}
        for key, question in zip(keys, questions, strict=True):
            if key not in cached:
                todo.setdefault(key, question)
        fresh: dict[str, Answer] = {}
        if todo:
            workers = 1 if self.config.backend == "local" else self.config.max_concurrency
            with ThreadPoolExecutor(workers) as pool:
                answers = map_in_pool(pool, self._ask_one, todo.values())
                fresh = dict(zip(todo, answers, strict=True))
        self._cache.put_many({k: a for k, a in fresh.items() if a.parsed is not None})
        served: set[str] = set()
        results = []
        for key in keys:
            if key in fresh and key not in served:
                served.add(key)
                results.append(Replied(fresh[key], False))
            else:
                results.append(Replied(fresh.get(key) or cached[key], True))
        return results

    def _ask_one(self, question: Question) -> Answer:
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

    def load(self) -> None:
        """Start the local backend's server now (ModelLoadError naming the cause when its
        model cannot load), so a command with a judge configured fails as it does for a lite
        model; a remote endpoint has nothing to load."""
        if self.config.backend == "local":
            from ragguard.judge.local import server

            server(self.config)

    def remember(self, trace_id: str, recorded: Mapping[int, JudgeVerdict]) -> None:
        """Hold the judge scores a logged evaluation of ``trace_id`` recorded, by span index
        (``LoggedTrace.judge_scores``, which ``replay`` reads), until that trace is
        evaluated: llama.cpp's probabilities move with threads and batching, and a replay
        must reproduce the verdicts it is compared with. Each is reused on its own span of
        that trace alone, and only where the question asked now has the recorded hash
        (``logged_reply``); nothing enters the cache another trace reads."""
        if not recorded:
            return
        self._recorded.pop(trace_id, None)
        self._recorded[trace_id] = recorded
        while len(self._recorded) > RECORDED_TRACES:
            self._recorded.popitem(last=False)


def logged_reply(
    recorded: Mapping[int, JudgeVerdict], asked: SpanAsked, model: str
) -> Replied | None:
    """The score the trace's logged evaluation recorded on this span, as this question's
    answer: only where it is this judge model's and its question hash is the one computed
    now from the claim and passages; None otherwise (the judge is asked)."""
    judge = recorded.get(asked.index)
    if judge is None or judge.score is None or judge.verdict is None or judge.model != model:
        return None
    if judge.question != asked.question.key(model):
        return None
    answer = Answer(Parsed(judge.verdict, judge.rationale), None, score=judge.score)
    return Replied(answer, reused=True, from_log=True)


def agreement(evaluation: Evaluation) -> tuple[int, int]:
    """(spans the judge decided, of which the lite verdict agreed): the lite verdict is the
    lite score against the evaluation's support eta."""
    eta = evaluation.thresholds.eta_support
    judged = [s for s in evaluation.spans if s.support_source == "judge" and s.judge]
    agreed = sum((s.support is not None and s.support >= eta) == s.supported for s in judged)
    return len(judged), agreed
