"""The labels file: each label appended the moment it is made, in the labelled format
(``ragguard calibrate`` reads it) plus ``hash``, ``design``, ``reviewer``, ``labelled_at``
and the page's ``review`` details.

Appends are whole lines written with one ``write`` on an ``O_APPEND`` descriptor under an
exclusive ``flock`` of the file, so two tabs, two reviewers or two servers on one file
interleave whole lines; a line left cut by a killed writer is closed with a newline before
the next, so at worst that one line is lost and every other line reads. A later line for
the same (hash, reviewer) replaces an earlier one: undo and changed minds are appends.
"""

from __future__ import annotations

import fcntl
import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from ragguard.review.cards import ReviewSpan
from ragguard.runtime import read_jsonl

Choice = Literal["supported", "unsupported", "not_a_claim", "undone"]
CHOICES: dict[str, bool | None] = {
    "supported": True,
    "unsupported": False,
    "not_a_claim": None,
    "undone": None,
}
"""Each choice and the label it writes (``not_a_claim`` and ``undone`` label nothing)."""
MAX_NOTE_CHARS = 2000


@dataclass(frozen=True)
class Label:
    """The current label of one (hash, reviewer): the last line written for it."""

    hash: str
    reviewer: str
    choice: str
    design: str
    details: dict[str, Any]
    line: dict[str, Any]


def label_line(
    span: ReviewSpan,
    choice: Choice,
    *,
    reviewer: str,
    note: str,
    sample: dict[str, Any],
) -> dict[str, Any]:
    """The line recording ``choice`` on ``span``."""
    data = span.line_base()
    labels: list[bool | None] = [None] * len(span.trace.response_spans or [])
    labels[span.index] = CHOICES[choice]
    data["labels"] = labels
    data["hash"] = span.hash
    data["design"] = span.design
    data["reviewer"] = reviewer
    data["labelled_at"] = datetime.now(UTC).isoformat(timespec="milliseconds")
    data["review"] = {
        **span.details,
        "choice": choice,
        "note": note[:MAX_NOTE_CHARS],
        "sample": sample,
    }
    return data


class LabelsFile:
    """The append-only labels file, shared safely by threads and processes."""

    def __init__(self, path: str | Path, *, fsync: bool = True) -> None:
        self.path = Path(path)
        self.fsync = fsync
        self.path.parent.mkdir(parents=True, exist_ok=True)
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
        self.descriptor = os.open(self.path, flags, 0o600)

    def append(self, line: dict[str, Any]) -> None:
        """Write one line, whole, after any line a killed writer left cut."""
        encoded = (json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
        fcntl.flock(self.descriptor, fcntl.LOCK_EX)
        try:
            if not _ends_with_newline(self.path):
                encoded = b"\n" + encoded
            os.write(self.descriptor, encoded)
            if self.fsync:
                os.fsync(self.descriptor)
        finally:
            fcntl.flock(self.descriptor, fcntl.LOCK_UN)

    def close(self) -> None:
        os.close(self.descriptor)


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as handle:
        size = handle.seek(0, os.SEEK_END)
        if not size:
            return True
        handle.seek(size - 1)
        return handle.read(1) == b"\n"


def current_labels(path: str | Path) -> dict[tuple[str, str], Label]:
    """Each (hash, reviewer)'s last line in a labels file (none when it does not exist);
    lines that are not review-page lines are left out."""
    found: dict[tuple[str, str], Label] = {}
    if not Path(path).exists():
        return found
    for _, data in read_jsonl(path):
        if not isinstance(data, dict):
            continue
        key, reviewer, details = data.get("hash"), data.get("reviewer"), data.get("review")
        if isinstance(key, str) and isinstance(reviewer, str) and isinstance(details, dict):
            choice = details.get("choice")
            design = data.get("design")
            if choice in CHOICES and design in ("random", "flagged"):
                found[(key, reviewer)] = Label(key, reviewer, choice, design, details, data)
    return found
