"""Pairing a labelled trace's labels with its evaluated spans (span i is entry i), and
streaming a labelled file through the lite tier to collect them."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tqdm.auto import tqdm

from ragguard.calibration import labels
from ragguard.calibration.labels import LabelledTrace
from ragguard.errors import RagguardError
from ragguard.schema import Evaluation

if TYPE_CHECKING:
    from ragguard.evaluation import Guard
    from ragguard.schema import Trace


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


def collect_labelled(
    guard: Guard, path: Path, max_line_bytes: int, report: Callable[[str], object]
) -> tuple[LabelledScores, int]:
    """Each labelled line's scores, streamed: a line is held only until its batch is
    evaluated, so memory stays bounded however long the file (a few numbers per labelled
    span are kept). ``report`` gets each skipped line's message. Returns the scores and the
    number of lines skipped."""
    collected = LabelledScores()
    pending: deque[LabelledTrace] = deque()
    skipped = 0

    def traces() -> Iterator[Trace]:
        nonlocal skipped
        for entry in labels.read_labelled(path, max_line_bytes=max_line_bytes):
            if isinstance(entry, RagguardError):
                skipped += 1
                report(f"skipped {entry}")
            else:
                pending.append(entry)
                yield entry.trace

    bar = tqdm(total=_lines(path), unit="line", desc="calibrate", disable=None)
    for outcome in guard.evaluate_stream(traces()):
        row = pending.popleft()
        if isinstance(outcome, Evaluation):
            collected.add(row, outcome)
        else:
            skipped += 1
            report(f"skipped line {row.line}: {outcome}")
        bar.n = row.line or bar.n
        bar.update(0)
    bar.close()
    return collected, skipped


def _lines(path: Path) -> int:
    """Newlines in ``path``, counted in blocks: the progress bar's total."""
    count = 0
    with path.open("rb") as handle:
        while block := handle.read(1 << 20):
            count += block.count(b"\n")
    return count
