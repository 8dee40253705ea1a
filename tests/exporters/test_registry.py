"""The exporter registry: one module per exporter, each with ``build``, imported only when
its exporter is turned on."""

from __future__ import annotations

import importlib
import subprocess
import sys

from ragguard.config import ExportConfig
from ragguard.exporters import EXPORTERS, Exporter, build_exporters
from ragguard.exporters.base import ExportResult, StatusNote, StatusRecorder
from ragguard.exporters.delivery import ExporterDelivery
from ragguard.exporters.registry import SHARED_KEYS, destinations, serve_monitor_config


def test_every_entry_is_a_module_with_build_and_a_config_key() -> None:
    keys = set(ExportConfig.model_fields)
    for entry in EXPORTERS:
        assert entry.name in keys, entry.name
        assert callable(importlib.import_module(entry.module).build), entry.module


def test_nothing_configured_builds_nothing_and_imports_no_exporter() -> None:
    code = (
        "import sys\n"
        "from ragguard.config import ExportConfig\n"
        "from ragguard.exporters import build_exporters\n"
        "assert build_exporters(ExportConfig(otel=False, prometheus=False)) == []\n"
        "assert build_exporters(ExportConfig(otel=False, prometheus=False), scope='serve') == []\n"
        "print(sorted(m for m in sys.modules if m.startswith('ragguard.exporters.')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-800:]
    assert done.stdout.strip() == "['ragguard.exporters.base', 'ragguard.exporters.registry']"


def test_scopes_keep_serves_annotators_out_of_a_monitor(tmp_path) -> None:
    config = ExportConfig(
        otel=False,
        prometheus=False,
        trace_log=str(tmp_path / "log.jsonl"),
        phoenix={"url": "http://127.0.0.1:9"},
    )
    live = build_exporters(config)
    served = build_exporters(config, scope="serve")
    assert [type(e).__name__ for e in live] == ["TraceLog"]
    assert [type(e).__name__ for e in served] == ["PhoenixExporter"]
    live[0].shutdown()


def test_every_exporters_key_belongs_to_one_entry_or_to_all() -> None:
    owners: dict[str, str] = {}
    for entry in EXPORTERS:
        assert entry.keys[0] == entry.name, entry.name
        assert set(entry.listens) <= set(entry.keys), entry.name
        for key in entry.keys:
            assert key not in owners, f"{key}: {owners.get(key)} and {entry.name}"
            owners[key] = entry.name
    assert not set(owners) & set(SHARED_KEYS)
    assert set(owners) | set(SHARED_KEYS) == set(ExportConfig.model_fields)


def test_serves_monitors_drop_the_serve_exporters_and_listeners(tmp_path) -> None:
    config = ExportConfig(
        prometheus_port=9464,
        trace_log=str(tmp_path / "log.jsonl"),
        phoenix={"url": "http://127.0.0.1:9"},
        langfuse={"url": "http://127.0.0.1:9"},
    )
    monitor = serve_monitor_config(config, "rag")
    assert monitor.pipeline == "rag"
    assert monitor.prometheus_port is None and monitor.phoenix is None
    assert monitor.langfuse is None
    assert monitor.trace_log == config.trace_log
    assert destinations(config) == [f"the trace log {config.trace_log}", "Phoenix", "Langfuse"]


def test_status_notes_reach_only_the_exporters_that_record_them() -> None:
    class Collector(Exporter):
        def export(self, batch: object) -> ExportResult:
            return ExportResult.SUCCESS

        def shutdown(self) -> None: ...

    class Annotating(Collector):
        def __init__(self) -> None:
            self.notes: list[StatusNote] = []

        def record_status(self, note: StatusNote) -> None:
            self.notes.append(note)

    note = StatusNote("t" * 32, "s" * 16, "no_context", "no retrieval span")
    plain, annotating = ExporterDelivery(Collector()), ExporterDelivery(Annotating())
    assert not isinstance(plain.exporter, StatusRecorder) and plain.record_status(note)
    assert annotating.record_status(note) and annotating.exporter.notes == [note]
    assert plain.force_flush() and annotating.delivery.counts.sent == 1  # the note, not the flush
