"""``ragguard replay``: re-evaluate a trace log with another config, diff the verdicts
against those logged live, and write a self-contained HTML report."""

from __future__ import annotations

import typing as _typing

from ragguard._exports import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from ragguard.replay.comparison import Comparison, StoredEvaluations, compare
    from ragguard.replay.diff import ABSENT
    from ragguard.replay.escape import markdown_text, plain_text
    from ragguard.replay.junit import JUnitReport
    from ragguard.replay.report import ReportBuilder
    from ragguard.replay.run import Replay, check_output_config, load_done, record_output_config

__all__ = [
    "ABSENT",
    "Comparison",
    "JUnitReport",
    "Replay",
    "ReportBuilder",
    "StoredEvaluations",
    "check_output_config",
    "compare",
    "load_done",
    "markdown_text",
    "plain_text",
    "record_output_config",
]

__getattr__, __dir__ = _lazy_exports(__name__, __file__, __all__)
