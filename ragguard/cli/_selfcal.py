"""A batch run that calibrates itself from the judge (``[calibration] source = "judge"``).

Before the verdicts are decided, a first pass evaluates the file with the lite tier alone
and sends only the calibration sample (a hash of trace id and span index picks it) to the
judge; the threshold and band are fitted on those verdicts. The run proper then starts
from that fit, on every runner alike (the fitted values travel in the config), and reuses
the sampled verdicts through the state file instead of asking again.
"""

from __future__ import annotations

import contextlib
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from tqdm.auto import tqdm

from ragguard.config import Config
from ragguard.errors import RagguardError
from ragguard.schema import Trace

if TYPE_CHECKING:
    from ragguard.evaluation import Evaluator
    from ragguard.judge import Cascade

PASS_BATCH = 64


def _batches(traces: Iterable[Trace | RagguardError], size: int) -> Iterator[list[Trace]]:
    batch: list[Trace] = []
    for trace in traces:
        if isinstance(trace, Trace):
            batch.append(trace)
            if len(batch) == size:
                yield batch
                batch = []
    if batch:
        yield batch


def needs_first_pass(config: Config) -> bool:
    return config.calibration.source == "judge" and config.judge.backend != "none"


def _with_state_file(config: Config, stack: contextlib.ExitStack) -> Config:
    """``config``, with a temporary state file (removed when ``stack`` closes) when it has
    none: the file carries the sample to the run proper and its workers."""
    if config.calibration.state_file is not None:
        return config
    folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="ragguard-")))
    return config.model_copy(
        update={
            "calibration": config.calibration.model_copy(
                update={"state_file": folder / "calibration.json"}
            )
        }
    )


def _first_pass(
    lite: Evaluator,
    cascade: Cascade,
    traces: Iterable[Trace | RagguardError],
    total: int | None,
) -> None:
    """The lite tier on every trace, the judge on the calibration sample only."""
    from ragguard.judge import Draft
    from ragguard.schema import Evaluation

    with tqdm(total=total, unit="trace", desc="calibrating", disable=None) as bar:
        for batch in _batches(traces, PASS_BATCH):
            outcomes = lite.evaluate_batch(batch)
            done = [
                (t, o) for t, o in zip(batch, outcomes, strict=True) if isinstance(o, Evaluation)
            ]
            cascade.rule([Draft.of(t, o) for t, o in done], sample_only=True)
            bar.update(len(batch))


@contextlib.contextmanager
def self_calibrated(
    config: Config,
    traces: Iterable[Trace | RagguardError],
    total: int | None,
    usage: Counter[str] | None = None,
) -> Iterator[Config]:
    """``config`` with the judge calibration fitted on this file's sample (unchanged when
    ``source`` is not "judge"). Without a ``state_file``, a temporary one carries the
    sample to the run proper and its workers, and is removed afterwards. The first pass's
    calls and tokens are added to ``usage``, and its tokens come off the day's budget of the
    run proper (``judge.budget.after_first_pass``): one budget for the whole run."""
    if not needs_first_pass(config):
        yield config
        return
    from ragguard.calibration import CalibrationStore, describe, model_fingerprint
    from ragguard.evaluation import Evaluator
    from ragguard.judge import Cascade, after_first_pass

    with contextlib.ExitStack() as stack:
        config = _with_state_file(config, stack)
        lite = Evaluator(
            config.model_copy(update={"judge": config.judge.model_copy(update={"backend": "none"})})
        )
        store = CalibrationStore(
            config.calibration,
            pipeline=config.exporters.pipeline,
            fingerprint=model_fingerprint(config),
            default_threshold=lite.models.support_scorer.threshold,
            default_band=config.judge.band,
        )
        cascade = Cascade(config.judge, calibration=store)
        _first_pass(lite, cascade, traces, total)
        store.save()
        if usage is not None:
            usage.update(cascade.calls)
        config = after_first_pass(config, cascade.calls)
        fitted = store.fitted
        print(f"calibration: {describe(fitted, 'judge')}", file=sys.stderr)
        if fitted is None:
            print(
                f"calibration: {store.n_samples} judge-labelled spans, fewer than "
                f"min_samples = {config.calibration.min_samples}: the defaults stand",
                file=sys.stderr,
            )
        yield config.model_copy(
            update={"calibration": config.calibration.model_copy(update={"fitted": fitted})}
        )
