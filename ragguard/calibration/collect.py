"""Pairing a labelled trace's labels with its evaluated spans (span i is entry i)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ragguard.calibration.labels import LabelledTrace
from ragguard.schema import Evaluation


@dataclass
class LabelledScores:
    """Lite scores of the labelled objective spans, and the labels of those never scored."""

    scores: list[float] = field(default_factory=list)
    labels: list[bool] = field(default_factory=list)
    kept: list[bool] = field(default_factory=list)
    """Labels of labelled spans that got no score (subjective, abstention, empty, nothing
    to check against): a monitor keeps them, so balanced accuracy counts them as kept."""
    all_scores: list[float] = field(default_factory=list)
    """Every objective span's score, labelled or not: the deployment's spread."""
    answer_scores: list[float] = field(default_factory=list)
    answer_labels: list[bool] = field(default_factory=list)
    """Answer relevance of the answers labelled ``answer_relevant`` (abstentions, which get
    no score, are left out), and those labels."""
    all_answer_scores: list[float] = field(default_factory=list)
    judged: list[tuple[float, float, bool]] = field(default_factory=list)
    """(lite score, judge score, label) of the labelled spans the judge scored: what the
    judge's combination card is refitted on (``calibrate --judge``)."""

    def add(self, labelled: LabelledTrace, evaluation: Evaluation) -> None:
        answer = evaluation.metrics.answer_relevance
        if answer is not None:
            self.all_answer_scores.append(answer)
            if labelled.answer_relevant is not None:
                self.answer_scores.append(answer)
                self.answer_labels.append(labelled.answer_relevant)
        for span, label in zip(evaluation.spans, labelled.labels, strict=True):
            scored = span.kind == "objective" and span.support is not None
            if scored:
                self.all_scores.append(span.support)  # type: ignore[arg-type]
            if label is None:
                continue
            if scored:
                self.scores.append(span.support)  # type: ignore[arg-type]
                self.labels.append(label)
                if span.judge is not None and span.judge.score is not None:
                    self.judged.append((span.support, span.judge.score, label))  # type: ignore[arg-type]
            else:
                self.kept.append(label)

    def extend(self, pairs: Iterable[tuple[LabelledTrace, Evaluation]]) -> LabelledScores:
        for labelled, evaluation in pairs:
            self.add(labelled, evaluation)
        return self
