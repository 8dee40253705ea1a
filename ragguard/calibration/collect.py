"""Pairing a labelled trace's labels with its evaluated spans (span i is entry i), and
streaming a labelled file through the lite tier to collect them."""

from __future__ import annotations

import hashlib
from collections import Counter, deque
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


SHOWN = 60
"""Characters of a span's text kept to name it in the list of disagreeing labels."""


@dataclass(slots=True)
class LabelledPair:
    """One distinct labelled (span, items) pair: its scores, how its first label was drawn,
    and the last label each labeller gave it, with that label's line."""

    score: float | None
    """The lite support score; None for a span never scored (counted as kept)."""
    judge: float | None
    design: str | None
    text: str
    labels: dict[str, tuple[bool, int | None]] = field(default_factory=dict)

    @property
    def agreed(self) -> bool | None:
        """The pair's label; None where its labellers disagree."""
        given = {label for label, _ in self.labels.values()}
        return given.pop() if len(given) == 1 else None


@dataclass
class LabelledScores:
    """The labelled spans' scores, one entry per distinct (span, items) pair: identical
    pairs count once (keyed on a review-page line's ``hash``, else on the span's text and
    its items' texts), and a pair whose labels disagree is listed and left out of the fit.
    A review-page labeller is its ``reviewer``, whose last line for a pair holds; every
    other line is a labeller of its own."""

    pairs: dict[bytes, LabelledPair] = field(default_factory=dict)
    read: int = 0
    """Labels read, before identical pairs were counted once."""
    all_scores: list[float] = field(default_factory=list)
    """Every objective span's score, labelled or not: the deployment's spread (repeats
    kept: a repeated answer is part of the traffic the band is cut from)."""
    answer_scores: list[float] = field(default_factory=list)
    answer_labels: list[bool] = field(default_factory=list)
    """Answer relevance of the answers labelled ``answer_relevant`` (abstentions, which get
    no score, are left out), and those labels."""
    all_answer_scores: list[float] = field(default_factory=list)

    def add(self, labelled: LabelledTrace, evaluation: Evaluation) -> None:
        answer = evaluation.metrics.answer_relevance
        if answer is not None:
            self.all_answer_scores.append(answer)
            if labelled.answer_relevant is not None:
                self.answer_scores.append(answer)
                self.answer_labels.append(labelled.answer_relevant)
        review = review_keys(labelled)
        for index, (span, label) in enumerate(zip(evaluation.spans, labelled.labels, strict=True)):
            scored = span.kind == "objective" and span.support is not None
            if scored:
                self.all_scores.append(span.support)  # type: ignore[arg-type]
            if label is None:
                continue
            self.read += 1
            key = pair_key(labelled, index, review)
            pair = self.pairs.get(key)
            if pair is None:
                judge = span.judge.score if span.judge is not None and scored else None
                text = " ".join(span.text.split())[:SHOWN]
                design = review[2] if review else None
                pair = self.pairs[key] = LabelledPair(
                    span.support if scored else None, judge, design, text
                )
            labeller = review[3] if review else f"label {self.read}"  # every line its own
            pair.labels[labeller] = (label, labelled.line)

    def extend(self, pairs: Iterable[tuple[LabelledTrace, Evaluation]]) -> LabelledScores:
        for labelled, evaluation in pairs:
            self.add(labelled, evaluation)
        return self

    def _agreed(self) -> Iterator[tuple[LabelledPair, bool]]:
        for pair in self.pairs.values():
            label = pair.agreed
            if label is not None:
                yield pair, label

    @property
    def scores(self) -> list[float]:
        """Lite scores of the scored pairs whose labels agree."""
        return [p.score for p, _ in self._agreed() if p.score is not None]

    @property
    def labels(self) -> list[bool]:
        """Their labels, parallel to ``scores``."""
        return [label for p, label in self._agreed() if p.score is not None]

    @property
    def kept(self) -> list[bool]:
        """Labels of the agreed pairs never scored (subjective, abstention, empty, nothing
        to check against): a monitor keeps them, so balanced accuracy counts them as kept."""
        return [label for p, label in self._agreed() if p.score is None]

    @property
    def judged(self) -> list[tuple[float, float, bool]]:
        """(lite score, judge score, label) of the agreed pairs the judge scored: what the
        judge's combination card is refitted on (``calibrate --judge``)."""
        return [
            (p.score, p.judge, label)
            for p, label in self._agreed()
            if p.score is not None and p.judge is not None
        ]

    def disagreeing(self) -> list[LabelledPair]:
        """The pairs whose labellers disagree (left out of the fit)."""
        return [pair for pair in self.pairs.values() if pair.agreed is None]

    def designs(self) -> Counter[str]:
        """How the agreed pairs were drawn (the review page's ``design``), counted."""
        return Counter(p.design for p, _ in self._agreed() if p.design is not None)


def review_keys(labelled: LabelledTrace) -> tuple[str, int, str, str] | None:
    """A review-page line's (``hash``, span, ``design``, ``reviewer``); None for another
    line. Read from the line's ``reviewed`` record where ``calibration.labels`` builds one,
    else from the keys the trace kept."""
    reviewed = getattr(labelled, "reviewed", None)
    if reviewed is not None:
        return reviewed.hash, reviewed.span, reviewed.design, reviewed.reviewer
    extra = labelled.trace.model_extra or {}
    tag, design, reviewer = extra.get("hash"), extra.get("design"), extra.get("reviewer")
    review = extra.get("review")
    span = review.get("span") if isinstance(review, dict) else None
    if isinstance(tag, str) and isinstance(design, str) and isinstance(reviewer, str):
        return (tag, span, design, reviewer) if isinstance(span, int) else None
    return None


def pair_key(
    labelled: LabelledTrace, index: int, review: tuple[str, int, str, str] | None
) -> bytes:
    """What makes two labelled spans one pair: a review-page line's ``hash``, else the
    span's text and its items' texts (in any order)."""
    digest = hashlib.blake2b(digest_size=16)
    if review is not None:
        parts = ["hash", review[0]]
    else:
        spans = labelled.trace.response_spans or []
        items = sorted(i.text or i.image or i.video or "" for i in labelled.trace.items)
        parts = ["text", spans[index].strip(), *items]
    for part in parts:
        digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
    return digest.digest()


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
