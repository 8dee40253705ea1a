"""Run-level summary of many evaluations: the one screen `ragguard evaluate` prints.

Its speed lines keep model loading apart from evaluation (loading the lite models takes
seconds, a one-trace run used to print it as that trace's latency) and say how per-trace
time was obtained: measured when each batch held one trace, else amortised over the batch.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ragguard.metrics.judge_calls import FROM_LOG, JUDGE_USES, calls_by_use
from ragguard.metrics.rate import Rate, RateTally
from ragguard.schema import CalibrationStatus, Evaluation, Metrics, unscored_for_language

MEANS = {
    "mean_relevance": "mean relevance (per trace: mean of its items)",
    "relevant_at_k": "relevant@k (per trace: share of its items)",
    "support_rate": "support rate (per trace: share of its claims)",
    "hallucination_rate": "hallucination rate (share of traces)",
    "abstention_rate": "abstention rate (share of traces)",
    "answer_relevance": "answer relevance (mean per trace)",
    "off_topic_rate": "off-topic rate (share of traces)",
    "citation_precision": "citation precision (mean per trace)",
    "citation_recall": "citation recall (mean per trace)",
}
"""The per-trace metrics the run averages: stable key (what gates, ``compare`` and scripts
read; never renamed) -> the summary's label (wording that may change). Each is a mean
over traces, while the span rows below count spans: the labels say so."""
RATE_KEY = "unsupported_span_rate"
RATE_LABEL = "unsupported span rate (per span)"
RATE_KEYS = (RATE_KEY, f"{RATE_KEY}.low", f"{RATE_KEY}.high")
"""The rate of unsupported objective spans and its 95% interval's bounds."""
METRICS = (*MEANS, *RATE_KEYS)
"""Every key of ``RunSummary.values()``."""


def trace_values(metrics: Metrics) -> dict[str, float | None]:
    """One trace's value of each of ``MEANS`` (None: the trace has none)."""
    off_topic = None if metrics.answer_relevant is None else float(not metrics.answer_relevant)
    return {
        "mean_relevance": metrics.mean_relevance,
        "relevant_at_k": metrics.relevant_at_k,
        "support_rate": metrics.support_rate,
        "hallucination_rate": None
        if metrics.hallucination is None
        else float(metrics.hallucination),
        "abstention_rate": float(metrics.abstained),
        "answer_relevance": metrics.answer_relevance,
        "off_topic_rate": off_topic,
        "citation_precision": metrics.citation_precision,
        "citation_recall": metrics.citation_recall,
    }


@dataclass
class RunSummary:
    evaluated: int = 0
    failed: int = 0
    _values: dict[str, list[float]] = field(default_factory=dict)
    _spans: dict[str, int] = field(
        default_factory=lambda: {"objective": 0, "subjective": 0, "abstention": 0}
    )
    _supported: dict[bool | None, int] = field(default_factory=lambda: {True: 0, False: 0, None: 0})
    _items: Counter[str] = field(default_factory=Counter)
    """Items scored, and unscored per modality (an image with no image model)."""
    _unread: Counter[str] = field(default_factory=Counter)
    """Objective spans unscored for language, per span language (docs/languages.md)."""
    _latency_ms: list[float] = field(default_factory=list)
    _largest_batch: int = 0
    _judge: Counter[str] = field(default_factory=Counter)
    """Spans the judge decided, skipped spans by reason, its tokens."""
    _judge_wait_ms: float = 0.0
    _rate: RateTally = field(default_factory=RateTally)
    """Unsupported objective spans, corrected by a judge-labelled calibration sample."""
    _calibration: CalibrationStatus | None = None
    _no_context: int = 0
    """Traces with no ``items`` key: no support verdict (serve's ``no_context`` status)."""
    _unscored_traces: int = 0
    """Traces with an objective span left without a verdict (no context, a language or a
    modality no loaded model reads)."""

    def _add(self, name: str, value: float | bool | None) -> None:
        if value is not None:
            self._values.setdefault(name, []).append(float(value))

    def add(self, evaluation: Evaluation) -> None:
        self.evaluated += 1
        m = evaluation.metrics
        self._no_context += m.no_context
        for key, value in trace_values(m).items():
            self._add(key, value)
        self._unscored_traces += any(
            s.kind == "objective" and s.supported is None for s in evaluation.spans
        )
        for span in evaluation.spans:
            self._spans[span.kind] = self._spans.get(span.kind, 0) + 1
            if span.kind == "objective":
                self._supported[span.supported] += 1
                if unscored_for_language(span):
                    self._unread[span.language] += 1
        self._rate.add(evaluation.spans, evaluation.thresholds.eta_support)
        if evaluation.calibration is not None:
            self._calibration = evaluation.calibration
        self._items["scored"] += sum(i.relevance is not None for i in evaluation.items)
        self._items.update(m.n_unscored)
        self._count_judge(evaluation)
        self._latency_ms.append(evaluation.timing_ms.get("total", float("nan")))
        self._largest_batch = max(
            self._largest_batch, int(evaluation.timing_ms.get("batch_size", 1))
        )

    def _count_judge(self, evaluation: Evaluation) -> None:
        for span in evaluation.spans:
            if span.support_source == "judge":
                self._judge["judged"] += 1
            elif span.judge_skipped is not None:
                self._judge[f"skipped {span.judge_skipped}"] += 1
            if span.calibration_sample and span.judge is not None:
                self._judge["calibration sample"] += 1
        for use, n in calls_by_use(evaluation).items():
            self._judge[use if use.startswith("tokens") or use == FROM_LOG else f"calls {use}"] += n
        self._judge_wait_ms += evaluation.timing_ms.get("judge", 0.0)

    def add_first_pass(self, used: Mapping[str, int]) -> None:
        """The self-calibration first pass's judge calls and tokens (``cli/_selfcal.py``):
        they count against the same budget, so the judge line counts them too."""
        calls = sum(n for use, n in used.items() if not use.startswith("tokens"))
        self._judge["calls first pass"] += calls
        self._judge["tokens in"] += int(used.get("tokens in", 0))
        self._judge["tokens out"] += int(used.get("tokens out", 0))

    def judge_row(self) -> tuple[str, str] | None:
        """judged / skipped (by reason) / tokens / wait, when a judge was configured and any
        span was in its band."""
        skipped = {k.removeprefix("skipped "): n for k, n in self._judge.items() if "skipped" in k}
        calls = {k.removeprefix("calls "): n for k, n in self._judge.items() if "calls " in k and n}
        if not self._judge["judged"] and not skipped and not calls and not self._judge[FROM_LOG]:
            return None
        reasons = ", ".join(f"{reason} {n}" for reason, n in sorted(skipped.items()))
        text = f"{self._judge['judged']} judged / {sum(skipped.values())} skipped"
        text += f" ({reasons})" if reasons else ""
        if self._judge["calibration sample"]:
            text += f"; {self._judge['calibration sample']} of them the calibration sample"
        if calls:
            text += (
                f"; {sum(calls.values())} calls ("
                + ", ".join(
                    f"{use} {calls[use]}" for use in (*JUDGE_USES, "first pass") if use in calls
                )
                + ")"
            )
        if self._judge[FROM_LOG]:
            text += f"; {self._judge[FROM_LOG]} verdicts reused from the log, verified, no call"
        text += f"; {self._judge['tokens in']:,} tokens in, {self._judge['tokens out']:,} out"
        return "judge", text + f"; {self._judge_wait_ms / 1000:.1f} s waiting on it"

    UNREACHABLE = ("unavailable", "timeout", "circuit_open")
    """Judge skip reasons that mean the endpoint did not answer."""

    def judge_warning(self) -> str | None:
        """One line for stderr when the judge answered none of the spans sent to it."""
        unanswered = sum(self._judge[f"skipped {reason}"] for reason in self.UNREACHABLE)
        if self._judge["judged"] or not unanswered:
            return None
        return (
            f"the judge answered none of the {unanswered} spans sent to it "
            "(unavailable, timed out or circuit open): they kept their lite verdicts"
        )

    def mean(self, key: str) -> float | None:
        """The run's mean of a per-trace metric (a key of ``MEANS``); None: no trace had it."""
        values = self._values.get(key)
        return float(np.mean(values)) if values else None

    def rate(self) -> Rate:
        """The unsupported span rate with its 95% interval, as the summary prints it."""
        return self._rate.rate()

    def values(self) -> dict[str, float | None]:
        """Every run metric by its stable key (``METRICS``): what the summary prints and what
        ``--fail-over`` / ``--fail-under`` read. None: the run could not compute it. The
        rate's bounds are those of the corrected rate only: without a judge-labelled sample
        the printed interval is the lite rate's sampling spread, no bound to gate on."""
        values = {key: self.mean(key) for key in MEANS}
        rate = self.rate()
        values |= dict.fromkeys(RATE_KEYS, None)
        if rate.n:
            values[RATE_KEY] = rate.value
        if rate.n and rate.corrected:
            values |= dict(zip(RATE_KEYS[1:], (rate.low, rate.high), strict=True))
        return values

    def speed_rows(self, load_s: float, eval_s: float, workers: str) -> list[tuple[str, str]]:
        """Model load, throughput over the evaluation's wall time alone, time per trace."""
        rows = [("model load", f"{load_s:.1f} s ({workers}; not counted below)")]
        if not self.evaluated or eval_s <= 0:
            return rows
        rows.append(("evaluation", f"{eval_s:.1f} s wall, {self.evaluated / eval_s:.1f} traces/s"))
        p50, p95 = np.nanpercentile(self._latency_ms, [50, 95])
        how = (
            "measured, one trace per batch"
            if self._largest_batch <= 1
            else f"amortised: batch time / traces in it, batches of up to {self._largest_batch}"
        )
        if self.judge_row() is not None:
            how += "; models only, the judge's wait is in the judge line"
        rows.append(("time per trace", f"p50 {p50:.1f} ms, p95 {p95:.1f} ms ({how})"))
        return rows

    def unscored(self) -> str | None:
        """The objective spans left without a verdict, in words (None: every one was
        scored): what a gate may not pass over (``metrics.gates.InputCheck``)."""
        spans = self._supported[None]
        if not spans:
            return None
        traces = self._unscored_traces
        return (
            f"{spans} claim{'s' if spans > 1 else ''} in {traces} trace{'s' if traces > 1 else ''}"
            " could not be scored" + self._unread_note()
        )

    def _unread_note(self) -> str:
        """The unscored spans that no loaded backbone could read, by language."""
        if not self._unread:
            return ""
        counts = ", ".join(f"{code} {n}" for code, n in sorted(self._unread.items()))
        return f" ({sum(self._unread.values())} for language: {counts})"

    def render(self, load_s: float, eval_s: float, workers: str = "1 process") -> str:
        rows = [
            ("traces evaluated", f"{self.evaluated}"),
            ("traces skipped (bad input)", f"{self.failed}"),
        ]
        if self._no_context:
            rows.append(("traces with no context", f"{self._no_context} (no items: no verdict)"))
        for key, label in MEANS.items():
            value = self.mean(key)
            rows.append((label, "n/a" if value is None else f"{value:.3f}"))
        rows.append(
            (
                "spans",
                " / ".join(f"{count} {kind}" for kind, count in self._spans.items()),
            )
        )
        supported = self._supported
        rows.append(
            (
                "objective spans (all traces)",
                f"{supported[True]} supported / {supported[False]} not"
                f" / {supported[None]} unscored" + self._unread_note(),
            )
        )
        unscored = {kind: n for kind, n in sorted(self._items.items()) if kind != "scored"}
        items = f"{self._items['scored']} scored / {sum(unscored.values())} unscored"
        if unscored:
            items += " (" + ", ".join(f"{kind} {n}" for kind, n in unscored.items()) + ")"
        rows.append(("items", items))
        rows.append((RATE_LABEL, str(self._rate.rate())))
        rows += [row for row in [self.judge_row()] if row is not None]
        if self._calibration is not None:
            rows.append(("calibration", describe_status(self._calibration)))
        rows += self.speed_rows(load_s, eval_s, workers)
        width = max(len(name) for name, _ in rows)
        lines = ["ragguard evaluation summary", "-" * (width + 24)]
        lines += [f"{name:<{width}}  {value}" for name, value in rows]
        return "\n".join(lines)


def describe_status(status: CalibrationStatus) -> str:
    """The calibration's state in one line (summary, report)."""
    if not status.fitted:
        text = f"{status.source}, not fitted yet ({status.n_samples} labels): default threshold"
    else:
        labels = "judge verdicts" if status.source == "judge" else "labels"
        text = f"{status.source}: threshold {status.threshold:.3f} on {status.n_samples} {labels}"
    if status.band is not None:
        text += f", band {status.band[0]:.3f}-{status.band[1]:.3f}"
    if status.agreement is not None:
        text += f", lite-judge agreement {status.agreement:.3f}"
    if status.drift is not None:
        text += f", drift {status.drift:.3f}"
        if status.drifted:
            text += " (WARNING: the scores drifted from the calibration's; recalibrate)"
    return text


def markdown_table(rows: Sequence[Mapping[str, object]], columns: Sequence[str]) -> str:
    """Rows as a Markdown table (floats to three decimals, a missing cell empty): what the
    benchmarks and ``ragguard judge-bench`` print, ready to paste into a README."""

    def cell(value: object) -> str:
        return f"{value:.3f}" if isinstance(value, float) else str(value)

    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell(row.get(c, "")) for c in columns) + " |" for row in rows]
    return "\n".join(lines)
