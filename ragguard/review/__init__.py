"""``ragguard review``: a local page where people label a sample of ragguard's verdicts,
one claim at a time; the labels calibrate ragguard (``ragguard calibrate``) and measure how
often its flags are right on this deployment's traffic (``summarize``).

The web stack (Starlette, uvicorn) is the ``review`` extra, imported only to serve.
"""

from ragguard.review.queue import build_queue
from ragguard.review.sample import Design, Reservoir, Sample, draw
from ragguard.review.session import Queue, ReviewSession
from ragguard.review.source import Source, open_source
from ragguard.review.store import LabelsFile, current_labels, label_line
from ragguard.review.summary import render_text, summarize

__all__ = [
    "Design",
    "LabelsFile",
    "Queue",
    "Reservoir",
    "ReviewSession",
    "Sample",
    "Source",
    "build_queue",
    "current_labels",
    "draw",
    "label_line",
    "open_source",
    "render_text",
    "summarize",
]
