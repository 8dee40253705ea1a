"""What every command shares: the runner (this process, ``--workers`` or Ray), batched and
counted evaluation behind a progress bar, output files replaced on success, and exit codes."""

from __future__ import annotations

import argparse
import collections
import contextlib
import os
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, TypeVar

from tqdm.auto import tqdm

from ragguard.errors import RagguardError, TraceValidationError

if TYPE_CHECKING:
    from ragguard.config import Config
    from ragguard.evaluation import Outcome
    from ragguard.metrics import RunSummary
    from ragguard.runners import RayRun, Runner
    from ragguard.runtime import LoggedTrace
    from ragguard.schema import Evaluation, Trace

T = TypeVar("T")


STDOUT = "-"
"""The output path that means standard output."""

EXIT_OK = 0
"""Every line was evaluated (or there was none)."""
EXIT_SKIPPED = 1
"""Some lines were skipped (bad input, a limit, a duplicate trace_id, a failed evaluation);
each was reported with its line number, and every other trace was written."""
EXIT_ERROR = 2
"""The run stopped: bad arguments or config, a model that cannot load, unreadable input,
an output path that is the input. An existing output file is left as it was."""
EXIT_GATE = 3
"""Every output was written, and a release gate failed (``--fail-over``, ``--fail-under``,
``compare --fail-if-worse``); it wins over ``EXIT_SKIPPED``, never over ``EXIT_ERROR``."""


def tally(
    outcomes: Iterable[tuple[str, Outcome, T]],
    *,
    total: int | None,
    summary: RunSummary,
    desc: str,
    on_skipped: Callable[[str, RagguardError], object] = lambda where, error: None,
) -> Iterator[tuple[T, Evaluation]]:
    """Count (where, outcome, tag) triples behind a progress bar: yield (tag, evaluation);
    errors are reported with where they came from, counted and passed to ``on_skipped``."""
    with tqdm(total=total, unit="trace", desc=desc, disable=None) as bar:
        for where, outcome, tag in outcomes:
            bar.update(1)
            if isinstance(outcome, RagguardError):
                summary.failed += 1
                prefix = "" if where in str(outcome) else f"{where}: "
                tqdm.write(f"skipped {prefix}{outcome}", file=sys.stderr)
                on_skipped(where, outcome)
                continue
            summary.add(outcome)
            yield tag, outcome


def batched_outcomes(
    runner: Runner, entries: Iterable[tuple[str, Trace | RagguardError, T]], batch_size: int | None
) -> Iterator[tuple[str, Outcome, T]]:
    """Evaluate (where, trace or error, tag) entries in batches, in order."""
    pending: collections.deque[tuple[str, T]] = collections.deque()

    def inputs() -> Iterator[Trace | RagguardError]:
        for where, entry, tag in entries:
            pending.append((where, tag))
            yield entry

    for outcome in runner.evaluate_stream(inputs(), batch_size=batch_size):
        where, tag = pending.popleft()
        yield where, outcome, tag


@contextlib.contextmanager
def open_runner(config: Config, workers: int | None) -> Iterator[tuple[Runner, str]]:
    """This process's Guard, or ``--workers`` processes; with how the run was spread."""
    from ragguard.evaluation import Guard
    from ragguard.runners import WorkerPool

    if workers is None or workers <= 1:
        yield Guard(config), "1 process"
        return
    with WorkerPool(config, workers) as pool:
        yield pool, f"{workers} worker processes, in parallel"


@contextlib.contextmanager
def jsonl_sink(path: str | None, mode: str) -> Iterator[Callable[[Evaluation], object]]:
    """A writer of one evaluation per line to ``path`` (a no-op without one, standard output
    for ``-``). Mode ``a``
    appends line by line (an interrupted run leaves at most a partial last line); mode ``w``
    writes a temporary file beside ``path`` and renames it over ``path`` only when the run
    finishes, so a run that fails (a model that cannot load) leaves ``path`` as it was."""
    if path is None:
        yield lambda evaluation: None
        return
    if path == STDOUT:
        yield lambda evaluation: print(evaluation.model_dump_json(), flush=True)
        return
    if mode == "a":
        with open(path, mode, encoding="utf-8", buffering=1) as out:
            yield lambda evaluation: out.write(evaluation.model_dump_json() + "\n")
        return
    with replaced_on_success(Path(path)) as out:
        yield lambda evaluation: out.write(evaluation.model_dump_json() + "\n")


@contextlib.contextmanager
def replaced_on_success(path: Path) -> Iterator[IO[str]]:
    """A temporary text file beside ``path`` that replaces it (atomically, by rename) when
    the block ends without an exception (SIGINT and SIGTERM included: see ``main``), and is
    removed otherwise. It gets the mode ``open(path, "w")`` would give: an existing file's
    own, else the umask's (a temporary file alone would be 0600)."""
    mode = file_mode(path)
    handle = tempfile.NamedTemporaryFile(  # noqa: SIM115 (closed or removed below)
        "w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.", suffix=".tmp", delete=False
    )
    try:
        os.chmod(handle.name, mode)
        with handle:
            yield handle
        os.replace(handle.name, path)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise


def file_mode(path: Path) -> int:
    """The permission bits of ``path`` if it exists, else those a new file gets (0666 less
    the umask)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return 0o666 & ~umask()


def umask() -> int:
    """The process's umask, read without changing it where Linux shows it."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)  # elsewhere: set and restore (the CLI runs it on one thread)
    os.umask(mask)
    return mask


class Terminated(BaseException):
    """SIGTERM, raised where the main thread is, so cleanup runs as for Ctrl-C."""


@contextlib.contextmanager
def sigterm_raises() -> Iterator[None]:
    """Within the block, SIGTERM raises ``Terminated`` in the main thread (elsewhere: no
    change); the previous handler comes back after. An error that ends the block after
    SIGTERM came is ``Terminated`` too: a library running Python code for us may wrap the
    one raised there in an error of its own (pydantic's serializer makes it a ValueError)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received = False

    def terminated(signum: int, frame: object) -> None:
        nonlocal received
        received = True
        raise Terminated

    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        yield
    except Exception as error:
        if received:
            raise Terminated from error
        raise
    finally:
        signal.signal(signal.SIGTERM, previous)


def refuse_overwriting_input(inputs: Sequence[str], output: str | None) -> None:
    """An output path naming an input file would destroy the input, and one that cannot be
    written would throw the run's work away at the end: usage errors, before any work."""
    if output is None or output == STDOUT:
        return
    check_writable(output)
    for name in inputs:
        if Path(output).exists() and Path(name).exists() and os.path.samefile(output, name):
            raise RagguardError(f"the output {output!r} is the input {name!r}; choose another path")


def check_writable(output: str) -> None:
    """Refuse an output path that names a folder or lies in a folder that does not exist."""
    path = Path(output)
    if path.is_dir():
        raise RagguardError(f"the output {output!r} is a directory; name a file in it")
    if not path.parent.is_dir():
        raise RagguardError(f"the output {output!r} is in a folder that does not exist")


def unique_ids(
    entries: Iterable[tuple[int, Trace | TraceValidationError]],
) -> Iterator[tuple[int, Trace | TraceValidationError]]:
    """The entries with every repeat of an earlier trace_id made an error naming the first
    line (``io.FirstLines``)."""
    from ragguard.runtime import FirstLines

    first = FirstLines()
    for line, entry in entries:
        if isinstance(entry, TraceValidationError):
            yield line, entry
        else:
            yield line, first.repeat(entry.trace_id, line) or entry


def recorded_judge_scores(
    runner: Runner, entries: Iterable[tuple[str, Trace | RagguardError, LoggedTrace | None]]
) -> Iterator[tuple[str, Trace | RagguardError, LoggedTrace | None]]:
    """``entries``, with the judge scores each logged evaluation recorded handed on first,
    with its trace id, to this process's judge or with the trace to its ``--workers``
    process, so a replay reuses them on the same spans of the same trace, where the question
    is unchanged, rather than asking again (a local model's probabilities move with threads
    and batching)."""
    from ragguard.runners import judge_memory

    remember = judge_memory(runner)
    for entry in entries:
        logged = entry[2]
        if remember is not None and logged is not None and logged.judge_scores:
            remember(logged.trace.trace_id, logged.judge_scores)
        yield entry


def load_ray_run() -> type[RayRun]:
    try:
        from ragguard.runners import RayRun
    except ImportError as error:
        if (error.name or "").split(".")[0] != "ray":
            raise
        raise RagguardError("--runner ray needs Ray: pip install 'ragguard-eval[ray]'") from None
    return RayRun


def scale_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--workers",
        type=int,
        default=None,
        help="processes on this machine, each with its own models (default 1); "
        "with --runner ray: actors (default: one per CPU of the cluster)",
    )
    command.add_argument(
        "--runner",
        choices=["local", "ray"],
        default="local",
        help="ray: read with Ray Data, evaluate on an actor pool (needs ragguard-eval[ray])",
    )
    command.add_argument(
        "--ray-address", help="Ray cluster to join (default: RAY_ADDRESS, else a local one)"
    )


@contextlib.contextmanager
def stdin_file(*, csv: bool) -> Iterator[str]:
    """Standard input copied to a private temporary file, removed after: a run reads its
    input more than once (the gates, self-calibration, the run) and workers read by path.
    ``csv``: another tool's export, named ``.csv`` unless it starts as JSON does."""
    import shutil

    head = sys.stdin.buffer.peek(64)[:64] if hasattr(sys.stdin.buffer, "peek") else b""
    is_json = head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"[")
    suffix = ".csv" if csv and head and not is_json else ".jsonl"
    with tempfile.TemporaryDirectory(prefix="ragguard-stdin-") as folder:
        path = Path(folder) / f"stdin{suffix}"
        with path.open("wb") as handle:
            shutil.copyfileobj(sys.stdin.buffer, handle)
        yield str(path)


def format_option(parser: argparse.ArgumentParser) -> None:
    """``--format``: read another evaluation tool's export as it is (docs/formats.md)."""
    from ragguard.runtime import FORMATS

    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="ragguard",
        help="the input's format: ragguard traces (default), or a RAGAS, DeepEval, Phoenix or "
        "LangSmith dataset export, JSONL or .csv (docs/formats.md)",
    )
