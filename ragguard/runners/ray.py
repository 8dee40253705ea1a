"""``--runner ray``: evaluate traces files and replay trace logs on a Ray cluster.

Ray Data reads the JSONL files (local paths or any filesystem pyarrow supports: ``s3://``,
``gs://``, ``hdfs://``) line by line, keeping each line's number and its newline, so bad and
partial lines are reported exactly as in one process. ``map_batches`` sends batches to a pool
of actors, each holding one Guard whose models load once; an actor that dies is restarted
and its batch retried (Ray Data's defaults for actor pools: ``max_restarts=-1``,
``max_task_retries=-1``). Results come back to the driver in input order, which writes
them, the summary and the report with the same code as the single-process path.

The rules of one process hold here too: a line longer than ``limits.max_line_bytes`` is
reported as such without being parsed (the reader drops its bytes as it goes), and in a
traces file a repeated trace_id is skipped (checked by the driver, in input order).
"""

from __future__ import annotations

import logging
import os
import pickle
import site
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ragguard.config import Config
from ragguard.errors import RagguardError
from ragguard.evaluation import Guard, Outcome
from ragguard.judge import per_worker
from ragguard.replay import Replay
from ragguard.runtime import FirstLines, LoggedTrace, as_logged, as_trace, overlong, parse_line
from ragguard.schema import Trace

if TYPE_CHECKING:
    import pyarrow

import ray
import ray.data
from ray.data.datasource import FileBasedDatasource

LINES_PER_BLOCK = 1024


OVERLONG = b""
"""The ``raw`` of a line longer than ``max_line_bytes`` (a real line is never empty)."""


class JsonlLines(FileBasedDatasource):
    """One row per non-blank line: ``path``, its line ``number`` and the ``raw`` bytes with
    their newline (a last line without one is a write cut short); ``OVERLONG`` for a line
    longer than ``max_line_bytes``. Ray's ``read_text`` would decode whole files at once and
    split on Unicode line breaks, which JSON strings may hold."""

    def __init__(self, paths: Sequence[str], max_line_bytes: int) -> None:
        super().__init__(list(paths))
        self.max_line_bytes = max_line_bytes

    def _read_stream(self, f: pyarrow.NativeFile, path: str) -> Iterator[pyarrow.Table]:
        import pyarrow as pa

        cap = self.max_line_bytes
        rest, over, number, rows = b"", False, 0, []
        while chunk := f.read(1 << 20):
            lines = (rest + chunk).split(b"\n")
            rest = lines.pop()
            for line in lines:
                number += 1
                if over or len(line) > cap:
                    rows.append((number, OVERLONG))
                    over = False
                elif line.strip():
                    rows.append((number, line + b"\n"))
            if len(rest) > cap:  # not held: the rest of this line is dropped as it comes
                over, rest = True, b""
            if len(rows) >= LINES_PER_BLOCK:
                yield _block(pa, path, rows)
                rows = []
        if over or rest.strip():
            rows.append((number + 1, OVERLONG if over else rest))
        if rows:
            yield _block(pa, path, rows)


def _block(pa: Any, path: str, rows: list[tuple[int, bytes]]) -> pyarrow.Table:
    return pa.table(
        {
            "path": pa.array([path] * len(rows), pa.string()),
            "number": pa.array([n for n, _ in rows], pa.int64()),
            "raw": pa.array([raw for _, raw in rows], pa.binary()),
        }
    )


def parse(
    path: str, number: int, raw: bytes, log: bool, max_line_bytes: int
) -> Trace | LoggedTrace | RagguardError:
    """A line of a traces file (``log`` False) or of a trace log, as the local readers see it."""
    if raw == OVERLONG:
        return overlong(number, max_line_bytes)
    data = parse_line(raw, number, whole_lines_only=log)
    return as_logged(data, path, number) if log else as_trace(data, number)


class EvaluateActor:
    """One Guard per actor, its models loaded once; returns each line's pickled outcome
    (empty for a trace id already done), its trace_id (empty when it did not parse as a
    trace) and when this actor finished loading."""

    def __init__(self, config: Config, done: Any, log: bool) -> None:
        # one CPU per actor: one backbone lane (Ray sets OMP_NUM_THREADS for torch backends)
        self.guard = Guard(config.with_thread_share(1))
        self.guard.load()
        self.ready_at = time.time()
        self.done: frozenset[str] = ray.get(done) if isinstance(done, ray.ObjectRef) else done
        self.log = log

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, Any]:
        entries: list[Trace | RagguardError] = []
        todo: list[int] = []
        ids = [""] * len(batch["raw"])
        cap = self.guard.config.limits.max_line_bytes
        judge = self.guard.models.judge
        for n, (path, number, raw) in enumerate(
            zip(batch["path"], batch["number"], batch["raw"], strict=True)
        ):
            record = parse(str(path), int(number), bytes(raw), self.log, cap)
            trace = record.trace if isinstance(record, LoggedTrace) else record
            if isinstance(trace, Trace):
                ids[n] = trace.trace_id
            if isinstance(trace, RagguardError) or trace.trace_id not in self.done:
                entries.append(trace)
                todo.append(n)
                if isinstance(record, LoggedTrace) and judge is not None:
                    judge.remember(record.trace.trace_id, record.judge_scores)  # if verified
        outcomes = [b""] * len(batch["raw"])
        evaluated = self.guard.evaluate_stream(entries, batch_size=max(len(entries), 1))
        for n, outcome in zip(todo, evaluated, strict=True):
            outcomes[n] = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
        return {
            **batch,
            "outcome": outcomes,
            "trace_id": ids,
            "ready_at": [self.ready_at] * len(outcomes),
        }


class RayRun:
    """One ``--runner ray`` run: joins (or starts) Ray, yields outcomes in input order, and
    afterwards says how long the actors took to load and how long evaluation took since."""

    def __init__(
        self,
        config: Config,
        paths: Sequence[str],
        replay: Replay | None,
        *,
        address: str | None = None,
        workers: int | None = None,
        batch_size: int | None = None,
    ):
        self.paths = list(paths)
        self.replay = replay
        self.config = config
        self.address = address
        self.workers = workers
        self.batch_size = batch_size
        self._started_ray = False
        self._first_ready = float("inf")
        self._started = time.time()

    def __enter__(self) -> RayRun:
        if not ray.is_initialized():
            try:
                ray.init(
                    address=self.address,
                    runtime_env=runtime_env(),
                    log_to_driver=False,
                    logging_level=logging.WARNING,
                )
            except ConnectionError as error:
                raise RagguardError(f"{error}. {AUTH_HINT}") from None
            self._started_ray = True
        logging.getLogger("ray.data").setLevel(logging.WARNING)  # the CLI reports progress
        context = ray.data.DataContext.get_current()
        context.execution_options.preserve_order = True  # results in input order
        context.enable_progress_bars = False  # the CLI draws its own
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._started_ray:
            ray.shutdown()

    @property
    def description(self) -> str:
        actors = f"{self.actors} Ray actor" + ("s" if self.actors > 1 else "")
        return f"{actors}: start-up until the first was ready"

    @property
    def actors(self) -> int:
        cpus = ray.cluster_resources().get("CPU", 1)
        return int(self.workers or max(1, int(cpus)))

    def timings(self) -> tuple[float, float]:
        """(start-up: seconds from the run's start until the first actor had started, imported
        and loaded its models; evaluation: seconds since then, wall clock)."""
        if self._first_ready == float("inf"):
            return 0.0, 0.0
        return self._first_ready - self._started, time.time() - self._first_ready

    def outcomes(self) -> Iterator[tuple[str, Outcome, LoggedTrace | None]]:
        self._started = time.time()
        done = frozenset(self.replay.done) if self.replay is not None else frozenset()
        log = self.replay is not None
        # reading reserves no CPU: the actors take one each, all of them by default
        cap = self.config.limits.max_line_bytes
        lines = JsonlLines(self.paths, cap)
        dataset = ray.data.read_datasource(lines, num_cpus=0).map_batches(
            EvaluateActor,
            fn_constructor_kwargs={
                # each actor spends 1/N of the judge's budgets, as --workers does
                "config": self.config.model_copy(
                    update={"judge": per_worker(self.config.judge, self.actors)}
                ),
                "done": ray.put(done),
                "log": log,
            },
            batch_size=self.batch_size or self.config.batch_size,
            batch_format="numpy",
            concurrency=self.actors,
            num_cpus=1,
        )
        first = FirstLines()
        for row in dataset.iter_rows():
            self._first_ready = min(self._first_ready, row["ready_at"])
            path, number, raw = str(row["path"]), int(row["number"]), bytes(row["raw"])
            where = f"{Path(path).name} line {number}" if log else f"line {number}"
            if self.replay is None:
                trace_id = str(row["trace_id"])
                repeat = first.repeat(trace_id, number) if trace_id else None
                yield where, repeat or pickle.loads(row["outcome"]), None
                continue
            record = parse(path, number, raw, True, cap)
            if not isinstance(record, LoggedTrace):
                assert isinstance(record, RagguardError)
                yield where, record, None
                continue
            admitted = self.replay.admit(record)
            if admitted is None:
                return
            if admitted:
                yield where, pickle.loads(row["outcome"]), record


AUTH_HINT = (
    "A cluster with token authentication (Ray's default when its head has a token) admits "
    "a driver that sets RAY_AUTH_MODE=token and holds the cluster's token: RAY_AUTH_TOKEN, "
    "or a file named by RAY_AUTH_TOKEN_PATH (default ~/.ray/auth_token)"
)
"""What a refused connection most often lacks, said where Ray's own error does not."""


def runtime_env() -> dict[str, Any]:
    """Workers of a source checkout import ragguard from it; an installed package needs
    nothing (on a remote cluster, ragguard must be installed on every node)."""
    root = str(Path(__file__).resolve().parent.parent)
    if any(root == str(Path(p).resolve()) for p in site.getsitepackages()):
        return {}
    paths = [root, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    return {"env_vars": {"PYTHONPATH": os.pathsep.join(paths)}}
