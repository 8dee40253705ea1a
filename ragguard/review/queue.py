"""The queue a run reviews: drawn from a log or an evaluations file, or continued from a
labels file; a reopened run redraws the sample its labels record, so it resumes."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Iterable
from typing import Any

from ragguard.errors import RagguardError, TraceValidationError
from ragguard.review.cards import ReviewSpan, check_span, from_label_line, from_record
from ragguard.review.sample import Design, Sample, draw
from ragguard.review.session import Queue
from ragguard.review.source import Source, traces_by_id
from ragguard.review.store import current_labels


def recorded_seed(labels_path: str, source: Source, design: Design, size: int) -> int | None:
    """The seed of the last sample drawn from ``source`` with this design and size into
    ``labels_path`` (None: none yet)."""
    for label in reversed(list(current_labels(labels_path).values())):
        sample = label.details.get("sample")
        if (
            isinstance(sample, dict)
            and sample.get("source") == source.name
            and sample.get("design") == design
            and sample.get("size") == size
            and isinstance(sample.get("seed"), int)
        ):
            return int(sample["seed"])
    return None


def build_queue(
    source: Source,
    labels_path: str,
    *,
    size: int,
    design: Design,
    seed: int | None,
    progress: bool = True,
) -> Queue:
    """The run's queue; prints what it skipped and how it was drawn to stderr."""
    if source.kind == "labels":
        return _continued(source)
    if seed is None:
        seed = recorded_seed(labels_path, source, design, size)
        if seed is not None:
            print(f"review: resuming the sample of seed {seed} in {labels_path}", file=sys.stderr)
    seed = secrets.randbelow(2**31) if seed is None else seed
    sample = draw(source, size, design=design, seed=seed, progress=progress)
    spans = list(_spans(source, sample))
    meta = {
        "design": design,
        "seed": seed,
        "size": size,
        "source": source.name,
        "spans": sample.population.spans,
        "flagged": sample.population.flagged,
        "records": sample.population.records,
    }
    _report(sample, len(spans))
    return Queue(spans, meta)


def _spans(source: Source, sample: Sample) -> Iterable[ReviewSpan]:
    traces: dict[str, dict[str, Any]] = {}
    if source.kind == "evaluations" and source.traces is not None:
        wanted = {str(d.record.evaluation.get("trace_id")) for d in sample.drawn}
        traces = traces_by_id(source.traces, wanted)
    for drawn in sample.drawn:
        record = drawn.record
        trace = record.trace or traces.get(str(record.evaluation.get("trace_id")))
        if trace is None:
            print(f"review: skipped {record.where}: its trace is not in --traces", file=sys.stderr)
            continue
        try:
            span = from_record(trace, record.evaluation, drawn.span, sample.design)
            check_span(span)
        except (TraceValidationError, RagguardError, ValueError) as error:
            print(f"review: skipped {record.where}: {error}", file=sys.stderr)
            continue
        yield span


def _report(sample: Sample, kept: int) -> None:
    population = sample.population
    for error in population.bad[:20]:
        print(f"review: skipped {error}", file=sys.stderr)
    print(
        f"review: {kept} spans drawn ({sample.design}, seed {sample.seed}) of "
        f"{population.spans} objective spans in {population.records} records "
        f"({population.flagged} flagged unsupported; {len(population.bad)} lines skipped)",
        file=sys.stderr,
    )


def _continued(source: Source) -> Queue:
    """A labels file's spans, each once, in the order first labelled."""
    spans: dict[str, ReviewSpan] = {}
    meta: dict[str, Any] = {}
    for label in current_labels(source.files[0]).values():
        if label.hash in spans:
            continue
        try:
            spans[label.hash] = from_label_line(label.line)
        except (TraceValidationError, ValueError) as error:
            print(f"review: skipped a label of {label.hash}: {error}", file=sys.stderr)
            continue
        sample = label.details.get("sample")
        meta = dict(sample) if isinstance(sample, dict) else meta
    if not spans:
        raise RagguardError(f"{source.files[0]}: no review-page labels to continue")
    return Queue(list(spans.values()), meta)
