"""The exporter registry: one module per exporter, each with ``build``, imported only when
its exporter is turned on."""

from __future__ import annotations

import importlib
import subprocess
import sys

from ragguard.config import ExportConfig
from ragguard.exporters import EXPORTERS, build_exporters


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
