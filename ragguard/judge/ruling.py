"""What the judge reads (a trace's lite draft) and what it returns (a ruling), so that it
decides before assembly and ``evaluation.assemble`` alone builds the ``Evaluation``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from ragguard.calibration import Sample
from ragguard.judge.share import Seen
from ragguard.schema import Evaluation, JudgeSkip, JudgeVerdict, SpanEvaluation, Thresholds, Trace


@dataclass(frozen=True)
class Draft:
    """One trace's lite verdicts before assembly: what the judge reads, never edits."""

    trace: Trace
    spans: Sequence[SpanEvaluation]
    answer_relevance: float | None
    thresholds: Thresholds

    @classmethod
    def of(cls, trace: Trace, evaluation: Evaluation) -> Draft:
        """The draft an assembled lite evaluation was made from (a calibration pass)."""
        answer = evaluation.metrics.answer_relevance
        return cls(trace, evaluation.spans, answer, evaluation.thresholds)


@dataclass(frozen=True)
class SpanRuling:
    """What the judge made of one span; each default is what the lite span already says."""

    judge: JudgeVerdict | None = None
    judge_skipped: JudgeSkip | None = None
    supported: bool | None = None
    """The judge's verdict where it decides the span (``support_source = "judge"``)."""
    calibration_sample: bool = False

    def update(self) -> dict[str, object]:
        """The span fields this ruling sets, for assembly."""
        fields: dict[str, object] = {
            "judge": self.judge,
            "judge_skipped": self.judge_skipped,
            "calibration_sample": self.calibration_sample,
        }
        if self.supported is not None:
            fields |= {"supported": self.supported, "support_source": "judge"}
        return fields


@dataclass(frozen=True)
class Effects:
    """What a ruling needs done beyond the evaluation, done by the cascade that asked, not
    by the policy that ruled."""

    calls: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    """Calls made, by use (``span``, ``answer``, ``sample``), and ``tokens in``/``out``."""
    samples: tuple[Sample, ...] = ()
    """Judge verdicts for the calibration sample's store."""
    window: tuple[Seen, ...] = ()
    """In-band spans that join the share window (``judge/share.py``), in order."""


@dataclass(frozen=True)
class Ruling:
    """What the judge made of one trace: its spans' rulings by index, and of its answer."""

    spans: Mapping[int, SpanRuling] = field(default_factory=lambda: MappingProxyType({}))
    answer_judge: JudgeVerdict | None = None
    answer_relevant: bool | None = None
    """The judge's verdict on the answer, where it reached one."""
    effects: Effects = field(default_factory=Effects)
