import json
import multiprocessing
import threading
from datetime import UTC, datetime

from ragguard.errors import TraceValidationError
from ragguard.exporters.base import Finished
from ragguard.exporters.tracelog import TraceLog
from ragguard.runtime.log_record import expand_logs, read_log
from ragguard.schema.inline import media_reference
from tests.support.replay_fixtures import evaluation, trace

MOMENT = datetime(2025, 6, 2, 8, 30, tzinfo=UTC)


def records(paths):
    return [record for _, record in read_log(paths)]


def test_a_logged_line_reads_back_as_the_trace_and_its_live_evaluation(tmp_path):
    log = TraceLog(tmp_path / "log.jsonl", clock=lambda: MOMENT)
    log.export([Finished(trace(), evaluation())])
    log.shutdown()
    line = json.loads((tmp_path / "log.jsonl").read_text())
    assert line["logged_at"] == "2025-06-02T08:30:00+00:00" and line["session"] == "s-42"
    (record,) = records([tmp_path / "log.jsonl"])
    assert record.trace == trace() and record.evaluation == evaluation()
    assert record.logged_at == MOMENT and record.line == 1 and not record.truncated


def test_a_partial_last_line_is_reported_with_its_number_and_skipped(tmp_path):
    path = tmp_path / "log.jsonl"
    log = TraceLog(path)
    for index in range(3):
        log.export([Finished(trace(f"t{index}"), evaluation(f"t{index}"))])
    log.shutdown()
    whole = path.read_bytes()
    path.write_bytes(whole + whole.splitlines(keepends=True)[0][:120])  # a crash mid-write
    found = list(read_log([path]))
    assert [r.trace.trace_id for _, r in found[:3]] == ["t0", "t1", "t2"]
    where, error = found[3]
    assert isinstance(error, TraceValidationError) and error.line == 4
    assert where == "log.jsonl line 4" and "partial last line" in str(error)


def test_threads_append_whole_lines_and_rotation_keeps_every_record(tmp_path):
    path = tmp_path / "log.jsonl"
    log = TraceLog(path, max_bytes=20_000, backups=100)

    def write(worker):
        for index in range(25):
            log.export([Finished(trace(f"w{worker}-{index}"), evaluation(f"w{worker}-{index}"))])

    threads = [threading.Thread(target=write, args=(w,)) for w in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    log.shutdown()
    files = expand_logs([f"{path}*"])
    assert log.stats.rotations >= 3 and files[-1] == path and len(files) == log.stats.rotations + 1
    assert all(f.stat().st_size <= 20_000 for f in files)
    ids = [r.trace.trace_id for r in records(files)]
    assert sorted(ids) == sorted(f"w{w}-{i}" for w in range(4) for i in range(25))


def _append_from_child(log, worker):
    big = "x" * 6000  # longer than PIPE_BUF: needs the flock to stay whole
    for index in range(20):
        item = {"id": "d1", "text": big}
        log.export(
            [Finished(trace(f"p{worker}-{index}", items=[item]), evaluation(f"p{worker}-{index}"))]
        )


def test_forked_processes_share_one_log_with_rotation_and_lose_nothing(tmp_path):
    path = tmp_path / "log.jsonl"
    log = TraceLog(path, max_bytes=60_000, backups=200)  # opened before the fork
    context = multiprocessing.get_context("fork")
    children = [context.Process(target=_append_from_child, args=(log, w)) for w in range(4)]
    for child in children:
        child.start()
    for child in children:
        child.join(timeout=60)
        assert child.exitcode == 0
    log.shutdown()
    found = [record for _, record in read_log(expand_logs([f"{path}*"]))]
    assert all(not isinstance(r, TraceValidationError) for r in found)
    ids = sorted(r.trace.trace_id for r in found)
    assert ids == sorted(f"p{w}-{i}" for w in range(4) for i in range(20))
    assert len(expand_logs([f"{path}*"])) > 4  # it did rotate, across processes


def test_inline_media_becomes_a_hash_and_oversized_records_are_bounded(tmp_path):
    pixels = "data:image/png;base64," + "A" * 50_000
    items = [{"id": "img", "image": pixels}, {"id": "d1", "text": "word " * 40_000}]
    log = TraceLog(tmp_path / "log.jsonl", max_record_bytes=20_000)
    log.export([Finished(trace(items=items), evaluation())])
    log.export([Finished(trace("huge", response="y" * 30_000), evaluation("huge"))])
    log.shutdown()
    (record,) = records([tmp_path / "log.jsonl"])
    assert record.trace.items[0].image == media_reference(pixels)
    assert record.truncated and len(record.trace.items[1].text) < 20_000
    assert (tmp_path / "log.jsonl").stat().st_size <= 20_000
    assert log.stats.written == 1 and log.stats.oversized == 1


def test_export_never_raises_and_counts_what_it_could_not_write(tmp_path):
    log = TraceLog(tmp_path / "log.jsonl", fsync="always")
    log.export([Finished(trace(), evaluation())])
    log.shutdown()
    log.export([Finished(trace("late"), evaluation("late"))])
    assert log.stats.written == 1 and log.stats.errors == 1


def test_rotated_backups_come_oldest_first_and_lock_files_are_ignored(tmp_path):
    for name in ("app.jsonl", "app.jsonl.1", "app.jsonl.10", "app.jsonl.2", "app.jsonl.lock"):
        (tmp_path / name).write_text("")
    names = [p.name for p in expand_logs([tmp_path / "app.jsonl*"])]
    assert names == ["app.jsonl.10", "app.jsonl.2", "app.jsonl.1", "app.jsonl"]


def test_a_bad_evaluation_names_its_field(tmp_path):
    path = tmp_path / "log.jsonl"
    record = {**trace().model_dump(mode="json"), "evaluation": {"trace_id": "t1"}}
    path.write_text(json.dumps(record) + "\n")
    (error,) = records([path])
    assert isinstance(error, TraceValidationError) and error.field.startswith("evaluation.")
