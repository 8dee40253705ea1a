"""A trace log that cannot be opened or written never reaches the application: opening is
counted like a failed write (at ``wrap()`` too), and a full disk prints one traceback, then
counts, then says when writes work again."""

import logging
import os

from langchain_core.language_models import FakeListChatModel
from langchain_core.prompts import ChatPromptTemplate

import ragguard
from ragguard.exporters.base import Finished
from ragguard.exporters.tracelog import TraceLog
from tests.support.replay_fixtures import evaluation, trace


def _unopenable(tmp_path):
    """A log path under a regular file: no folder can be made there, even by root."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    return blocker / "logs" / "ragguard.jsonl"


def test_a_log_that_cannot_be_opened_is_counted_not_raised(tmp_path, caplog):
    with caplog.at_level(logging.ERROR, logger="ragguard"):
        log = TraceLog(_unopenable(tmp_path))
    assert log.stats.errors == 1 and "cannot open" in caplog.text
    log.export([Finished(trace(), evaluation())])
    assert log.stats.errors == 2 and log.stats.written == 0


def test_a_log_that_opens_later_is_written_then(tmp_path):
    blocker = tmp_path / "later"
    blocker.write_text("")
    log = TraceLog(blocker / "log.jsonl")
    assert log.stats.errors == 1
    blocker.unlink()  # the folder can be made now
    log.export([Finished(trace(), evaluation())])
    assert log.stats.written == 1 and (blocker / "log.jsonl").read_text().count("\n") == 1
    log.shutdown()


def test_wrap_with_a_log_that_cannot_be_opened_still_answers(tmp_path, guard):
    chain = ChatPromptTemplate.from_template("{question}") | FakeListChatModel(responses=["Paris."])
    log_path = str(_unopenable(tmp_path))
    config = {"exporters": {"trace_log": log_path, "otel": False, "prometheus": False}}
    wrapped = ragguard.wrap(chain, config=config, guard=guard)
    assert wrapped.invoke({"question": "Where is the Eiffel Tower?"}).content == "Paris."
    (log,) = ragguard.Monitor.shared(config, guard=guard).exporters
    assert log.stats.errors >= 1


def test_a_full_disk_logs_one_traceback_then_counts(tmp_path, caplog):
    path = tmp_path / "log.jsonl"
    os.symlink("/dev/full", path)  # every write fails with ENOSPC
    log = TraceLog(path, fsync="never")
    with caplog.at_level(logging.DEBUG, logger="ragguard"):
        for n in range(50):
            log.export([Finished(trace(f"t{n}"), evaluation(f"t{n}"))])
    assert log.stats.errors == 50 and log.stats.written == 0
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert len(tracebacks) == 1 and "No space left" in caplog.text
    assert sum(r.levelno >= logging.WARNING for r in caplog.records) == 1
    caplog.clear()
    path.unlink()  # space again: the path is a plain file now
    with caplog.at_level(logging.WARNING, logger="ragguard"):
        log.export([Finished(trace("back"), evaluation("back"))])
    assert log.stats.written == 1 and "after 50 failed records" in caplog.text
    log.shutdown()


def test_monitors_of_many_configurations_share_one_trace_log(tmp_path, guard):
    def descriptors():
        return len(os.listdir("/proc/self/fd"))

    def monitor(n):
        exporters = {"trace_log": str(tmp_path / "shared.jsonl"), "pipeline": f"p{n}"}
        return ragguard.Monitor.shared(
            {"exporters": {**exporters, "otel": False}}, guard=guard, warmup=False
        )

    monitors = [monitor(0)]
    before = descriptors()
    monitors += [monitor(n) for n in range(1, 50)]
    assert len({id(m) for m in monitors}) == 50  # one Monitor per distinct configuration
    assert len({id(m.exporters[-1]) for m in monitors}) == 1  # ... and one log between them
    assert descriptors() - before < 5  # 49 logs of their own would hold 98 more
