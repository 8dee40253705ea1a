"""``assert_supported`` and ``assert_relevant``: one trace built from the arguments,
evaluated by the process's shared Guard for the config, and an ``AssertionError`` that
lists each unsupported claim with its reasons. Heavy modules are imported on first call."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ragguard.config import ConfigLike
    from ragguard.evaluation import Guard
    from ragguard.schema import Evaluation, Item

Recorder = Callable[[str, bool, "Evaluation"], None]

_recorders: list[Recorder] = []
"""Called with (assertion, passed, evaluation) after every assertion: the pytest plugin's
``--ragguard-report`` writer."""
_session_config: list[ConfigLike] = [None]
"""The config an assertion without ``config=`` uses (the plugin's ``--ragguard-config``)."""


def add_recorder(recorder: Recorder) -> Callable[[], None]:
    """Have ``recorder`` see every assertion's evaluation; returns its removal."""
    _recorders.append(recorder)
    return lambda: _recorders.remove(recorder)


def use_config(config: ConfigLike) -> None:
    """The config of assertions and of ``session_guard()`` given none (a path, a dict, a
    Config; None: the defaults)."""
    _session_config[0] = config


def session_guard(config: ConfigLike = None) -> Guard:
    """The process's shared Guard for ``config`` (else the session's): models load once."""
    from ragguard.config import Config
    from ragguard.live import shared_guard

    chosen = _session_config[0] if config is None else config
    return shared_guard(Config.coerce(chosen))


def _evaluate(
    response: str,
    contexts: str | Mapping[str, Any] | Item | Sequence[str | Mapping[str, Any] | Item],
    query: str,
    config: ConfigLike,
) -> Evaluation:
    from ragguard.schema import Item, Trace

    items: list[Item | dict[str, Any]] = []
    if isinstance(contexts, (str, Mapping, Item)):  # one passage given alone, not a list
        contexts = [contexts]
    for number, context in enumerate(contexts, start=1):
        if isinstance(context, str):
            items.append({"id": f"c{number}", "text": context})
        else:
            items.append(context if isinstance(context, Item) else dict(context))
    payload = json.dumps([query, response, [str(i) for i in items]], sort_keys=True)
    trace_id = "test-" + hashlib.sha256(payload.encode()).hexdigest()[:12]
    trace = Trace.parse(
        {"trace_id": trace_id, "query": query, "items": items, "response": response}
    )
    return session_guard(config).evaluate(trace)


def _settle(assertion: str, evaluation: Evaluation, failure: list[str]) -> Evaluation:
    __tracebackhide__ = True  # pytest shows the user's assertion, not ragguard's frames
    for recorder in list(_recorders):
        recorder(assertion, not failure, evaluation)
    if failure:
        raise AssertionError("\n".join(failure))
    return evaluation


def assert_supported(
    response: str,
    contexts: str | Sequence[str | Mapping[str, Any] | Item],
    *,
    query: str,
    config: ConfigLike = None,
    allow_empty: bool = False,
) -> Evaluation:
    """Every factual claim of ``response`` is supported by ``contexts`` (texts, or items as
    in a trace; one string is one passage); opinions and abstentions are set aside. Raises
    ``AssertionError`` listing each unsupported (or unscored) claim with its reasons, and
    when the response makes no factual claim at all ("", a lone "[1]", only opinions or an
    abstention: a pipeline that broke must not pass), unless ``allow_empty``; returns the
    evaluation."""
    __tracebackhide__ = True
    from ragguard.metrics import unsupported_claims

    evaluation = _evaluate(response, contexts, query, config)
    lines = unsupported_claims(evaluation, unscored=True)
    objective = sum(s.kind == "objective" for s in evaluation.spans)
    failure = []
    if not objective and not allow_empty:
        failure = [
            f"the response makes no factual claim to check ({response[:200]!r}, query "
            f"{query!r}); pass allow_empty=True where that is the expected answer"
        ]
    elif lines:
        failing = sum(not line.startswith("  ") for line in lines)
        failure = [
            f"{failing} of {objective} claims are not supported by the contexts (query {query!r}):",
            *lines,
        ]
    return _settle("assert_supported", evaluation, failure)


def assert_relevant(
    response: str,
    *,
    query: str,
    contexts: str | Sequence[str | Mapping[str, Any] | Item] = (),
    config: ConfigLike = None,
) -> Evaluation:
    """``response`` addresses ``query`` (answer relevance at its threshold, or the judge's
    verdict when it decided). An abstention does not. Raises ``AssertionError`` naming the
    score, the threshold and the sentences that do not address the query."""
    __tracebackhide__ = True
    from ragguard.metrics import off_question

    evaluation = _evaluate(response, contexts, query, config)
    failure = []
    if evaluation.metrics.answer_relevant is None:
        failure = [f"the answer abstains or says nothing, so it does not address {query!r}"]
    elif (line := off_question(evaluation)) is not None:
        failure = [f"{line} ({query!r})"]
        failure += [
            f"  - {span.text!r} does not address it"
            for span in evaluation.spans
            if span.addresses_query is False
        ]
    return _settle("assert_relevant", evaluation, failure)


class JsonlReport:
    """``--ragguard-report FILE``: one line per assertion, written as it is made.

    Under pytest-xdist every worker process writes to the same file: the controller
    truncates it (``truncate``), the workers append, each line in one ``write`` to a file
    opened ``O_APPEND`` and under an exclusive lock, so no line cuts into another."""

    def __init__(self, path: str | Path, *, truncate: bool = True) -> None:
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | (os.O_TRUNC if truncate else 0)
        self._fd = os.open(path, flags, 0o666)

    def __call__(self, assertion: str, passed: bool, evaluation: Evaluation) -> None:
        test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]
        record = {
            "test": test,
            "assertion": assertion,
            "passed": passed,
            "evaluation": evaluation.model_dump(mode="json"),
        }
        data = memoryview((json.dumps(record) + "\n").encode("utf-8"))
        with _locked(self._fd):
            while data:
                data = data[os.write(self._fd, data) :]

    def close(self) -> None:
        os.close(self._fd)


@contextmanager
def _locked(fd: int) -> Iterator[None]:
    """An exclusive lock on the report while one line is written (POSIX; elsewhere
    ``O_APPEND`` alone keeps each write whole)."""
    try:
        import fcntl
    except ImportError:  # Windows
        yield
        return
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
