"""The review queue, drawn in one streaming pass over the source.

``random``: a uniform sample of objective spans (those with a support score), by Li's
Algorithm L reservoir over spans, not traces: a trace with ten claims is ten times as likely
to be drawn as a trace with one, and the pass costs a skip count per record rather than a
random number per span. ``flagged``: the spans ragguard flagged unsupported first (lowest
support first), then others, for triage; only ``random`` labels estimate rates.

A line is read whole only when a reservoir takes one of its spans (``Source.lines``). One
found bad then is dropped as if never offered: in the filling phase it holds no place; past
it, the span taken is let go and the next skip drawn, and as the skips are memoryless (each
span has its own uniform key; the reservoir keeps the smallest) the sample stays uniform
over the good lines' spans.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Literal

from tqdm.auto import tqdm

from ragguard.errors import TraceValidationError
from ragguard.review.source import Line, Record, Source, spans_drawn_from

Design = Literal["random", "flagged"]


@dataclass(frozen=True)
class Drawn:
    """One sampled span: its record and the span's index in the evaluation."""

    record: Record
    span: int


class Reservoir:
    """A uniform sample of ``size`` of the items offered, in one pass (Algorithm L)."""

    def __init__(self, size: int, rng: random.Random) -> None:
        self.size, self.rng = size, rng
        self.held: list[Drawn] = []
        self.seen = 0
        self.weight = math.exp(math.log(self._unit()) / size) if size else 1.0
        self.next_taken = size + self._skip()

    def _unit(self) -> float:
        return self.rng.random() or 1e-300

    def _skip(self) -> int:
        if self.weight >= 1.0:
            return 0
        return int(math.log(self._unit()) / math.log1p(-self.weight))

    def offer(self, line: Line, spans: list[int]) -> bool:
        """Offer a line's eligible spans (their indices), in order; True when one of them
        was taken. The line is read whole only when one is."""
        if not self.size or not spans:
            return False
        end, taken = self.seen + len(spans), False
        filling = spans[: max(self.size - self.seen, 0)]
        if filling:
            record = line.record()
            if record is None:
                return False  # a bad line holds no place
            self.held.extend(Drawn(record, span) for span in filling)
            taken = True
        while self.next_taken < end:
            record = line.record()
            if record is not None:
                span = spans[self.next_taken - self.seen]
                self.held[self.rng.randrange(self.size)] = Drawn(record, span)
                taken = True
                self.weight *= math.exp(math.log(self._unit()) / self.size)
            self.next_taken += self._skip() + 1
        self.seen = end
        return taken


@dataclass
class Population:
    """What the pass saw: eligible spans, those flagged unsupported, records, bad lines."""

    spans: int = 0
    flagged: int = 0
    records: int = 0
    bad: list[TraceValidationError] = field(default_factory=list)
    superseded: int = 0
    """Sampled spans dropped because a later record of their trace replaced theirs."""
    read_whole: int = 0
    """Lines read whole: those a span was drawn from, and those not in the trace log's own
    shape; every other line had only its evaluation decoded."""


@dataclass(frozen=True)
class Sample:
    """The drawn queue, in order, and how it was drawn."""

    design: Design
    seed: int
    size: int
    drawn: list[Drawn]
    population: Population


def draw(
    source: Source,
    size: int,
    *,
    design: Design = "random",
    seed: int,
    progress: bool = True,
) -> Sample:
    """One pass over ``source``: the sample of ``size`` spans under ``design``."""
    rng = random.Random(seed)
    main, rest = Reservoir(size, rng), Reservoir(size if design == "flagged" else 0, rng)
    population = Population()
    bar = tqdm(total=source.size(), unit="B", unit_scale=True, desc="review", disable=not progress)
    latest: dict[str, Record] = {}
    """The last record of each trace id the reservoirs hold (a trace logged again, as
    ``serve`` does after a late span, is shown from its last record)."""
    for done, line in source.lines(population.bad):
        spans = spans_drawn_from(line.evaluation)
        chosen = [i for i, _ in spans]
        flagged = [i for i, unsupported in spans if unsupported]
        trace_id = line.evaluation.get("trace_id")
        if design == "random":
            taken = main.offer(line, chosen)
        else:
            others = [i for i, unsupported in spans if not unsupported]
            taken = main.offer(line, flagged) | rest.offer(line, others)
        if isinstance(trace_id, str) and (taken or trace_id in latest):
            record = line.record()
            if record is not None:
                latest[trace_id] = record
            if len(latest) > 4 * (main.size + rest.size) + 64:
                _forget_unheld(latest, main, rest)
        if line.error is not None:
            population.bad.append(line.error)
            continue
        population.records += 1
        population.read_whole += line.read_whole
        population.spans += len(chosen)
        population.flagged += len(flagged)
        if population.records % 256 == 0:
            bar.n = done
            bar.update(0)
    bar.n = bar.total
    bar.close()
    queue = _queue(main, rest, latest, population, size)
    return Sample(design, seed, size, queue, population)


def _forget_unheld(latest: dict[str, Record], *reservoirs: Reservoir) -> None:
    """Keep ``latest`` bounded: only the trace ids some reservoir still holds."""
    held = {d.record.evaluation.get("trace_id") for r in reservoirs for d in r.held}
    for key in [k for k in latest if k not in held]:
        del latest[key]


def _queue(
    main: Reservoir,
    rest: Reservoir,
    latest: dict[str, Record],
    population: Population,
    size: int,
) -> list[Drawn]:
    def current(drawn: Drawn) -> bool:
        trace_id = drawn.record.evaluation.get("trace_id")
        return not isinstance(trace_id, str) or latest.get(trace_id, drawn.record) is drawn.record

    def support(drawn: Drawn) -> float:
        return float(drawn.record.evaluation["spans"][drawn.span]["support"])

    first = sorted(main.held, key=support) if rest.size else main.held
    others = list(rest.held)
    main.rng.shuffle(first if not rest.size else others)  # any prefix of the queue is a sample
    queue = [*first, *others][:size]
    kept = [d for d in queue if current(d)]
    population.superseded = len(queue) - len(kept)
    return kept
