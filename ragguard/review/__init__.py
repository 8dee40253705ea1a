"""``ragguard review``: a local page where people label a sample of ragguard's verdicts,
one claim at a time; the labels calibrate ragguard (``ragguard calibrate``) and measure how
often its flags are right on this deployment's traffic (``summarize``).

The web stack (Starlette, uvicorn) is the ``review`` extra, imported only to serve.
"""

import typing as _typing

from ragguard._exports import lazy_exports as _lazy_exports
from ragguard.review.queue import build_queue
from ragguard.review.sample import Design, Reservoir, Sample, draw
from ragguard.review.session import Queue, ReviewSession
from ragguard.review.source import Source, open_source
from ragguard.review.store import LabelsFile, current_labels, label_line
from ragguard.review.summary import render_text, summarize

if _typing.TYPE_CHECKING:
    from ragguard.review.server import bind, read_token, serve

__all__ = [
    "Design",
    "LabelsFile",
    "Queue",
    "Reservoir",
    "ReviewSession",
    "Sample",
    "Source",
    "bind",
    "build_queue",
    "current_labels",
    "draw",
    "label_line",
    "open_source",
    "read_token",
    "render_text",
    "serve",
    "summarize",
]

__getattr__, __dir__ = _lazy_exports(__name__, __file__, __all__)
