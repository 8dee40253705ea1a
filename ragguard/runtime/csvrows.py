"""Reading a CSV export row by row, as the JSONL reader reads lines: streamed, each row
decoded and checked on its own, so a bad row is reported with its line and the rest is read.

- A row (all its lines, for a quoted cell that spans lines) may hold up to
  ``limits.max_line_bytes`` bytes, the bound of a JSONL line (16 MB by default: five 30 KB
  passages fit many times over). A longer row is reported and read through unparsed,
  without being held in memory, to the line where its quotes balance.
- A row that is not UTF-8 (a Latin-1 byte) is reported; the other rows are read.
- A quoted cell still open at the end of the file would swallow every row after it: the
  row it opens on is reported and reading starts again on the next line.
- A quoted cell that spans lines, and whose lines inside it would each read as a whole row
  of the header's width, is a stray quote swallowing rows (``q,"a 5",x`` ... ``q,55"``): its
  row is reported with the line where the quote opens, and reading starts again on the next
  line. A legitimate multi-line cell (a passage's paragraphs, a list pandas wrote) has lines
  that do not read as rows; one inner line that happens to does not count when the row
  still has the header's width.
- A row with more cells than the header is reported (a stray quote or comma moved its cells).
- A UTF-8 byte-order mark (Excel's "CSV UTF-8") is read past.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from ragguard.errors import TraceValidationError

_CHUNK = 1 << 20
_OPEN_AT_END = "unexpected end of data"
"""What ``csv`` says (strict) when the file ends inside a quoted cell."""


class _TooLong(Exception):
    """The row being read passed the byte bound (raised through ``csv.reader``)."""


class _Lines:
    """The file's lines decoded one by one for ``csv.reader``, with the bytes, quotes and
    first decoding error of the row being read."""

    def __init__(self, handle: BinaryIO, limit: int) -> None:
        self.handle = handle
        self.limit = limit
        self.line = 0
        self.row_bytes = 0
        self.quotes = 0
        self.undecodable: str | None = None
        self.cut = False
        self.width: int | None = None
        """The header's cells, once read: what a line must split into to read as a row."""
        self.row_lines = 0
        self.inner_rows = True
        """Every line strictly inside the row (neither its first nor its latest) reads as a
        whole row."""
        self.latest_row = False

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> str:
        raw = self.handle.readline(self.limit + 1 - self.row_bytes)
        if not raw:
            raise StopIteration
        self.line += 1
        self.row_bytes += len(raw)
        self.quotes += raw.count(b'"')
        self.cut = not raw.endswith(b"\n")
        self.row_lines += 1
        if self.row_lines > 2:  # the line before this one is inside the row
            self.inner_rows = self.inner_rows and self.latest_row
        self.latest_row = False
        if self.row_bytes > self.limit:
            raise _TooLong
        try:
            text = raw.decode("utf-8-sig" if self.line == 1 else "utf-8")
        except UnicodeDecodeError as error:
            if self.undecodable is None:
                self.undecodable = f"not valid UTF-8 on line {self.line}: {error}"
            text = raw.decode("utf-8", errors="replace")
        if self.row_lines > 1 and self.inner_rows and self.width is not None:
            self.latest_row = _reads_as_row(text, self.width)
        return text

    def new_row(self) -> int:
        """Start a row; the line it starts on."""
        self.row_bytes = self.quotes = self.row_lines = 0
        self.undecodable = None
        self.inner_rows, self.latest_row = True, False
        return self.line + 1

    def swallowed(self, cells: int | None) -> int:
        """How many whole rows the row just read swallowed into a quoted cell (0: none). Its
        lines inside the cell, at least one, must each read as a whole row; and where only
        one does, the row (``cells``: its width; None where it failed) must have lost its
        shape, as a legitimate multi-line cell in a row of the header's width does not."""
        inner = self.row_lines - 2
        if inner < 1 or not self.inner_rows or self.width is None:
            return 0
        return inner if inner > 1 or cells != self.width else 0

    def read_through(self) -> None:
        """After an error inside a row: the rest of it read and dropped, in bounded chunks,
        to the end of a line where the row's quotes balance (a quoted cell closed)."""
        while self.cut or self.quotes % 2:
            chunk = self.handle.readline(_CHUNK)
            if not chunk:
                return
            self.line += 0 if self.cut else 1
            self.quotes += chunk.count(b'"')
            self.cut = not chunk.endswith(b"\n")


def read_csv(
    path: str | Path, max_row_bytes: int
) -> Iterator[tuple[int, dict[str, Any] | TraceValidationError]]:
    """(line a row starts on, the row keyed by the header's names or that row's error) per
    non-blank row after the header."""
    csv.field_size_limit(max(csv.field_size_limit(), max_row_bytes + 1))  # rows bound it
    with Path(path).open("rb") as handle:
        lines = _Lines(handle, max_row_bytes)
        reader = csv.reader(lines, strict=True)
        header: list[str] | None = None
        while True:
            offset, start = handle.tell(), lines.new_row()
            cells: list[str] = []
            error: str | None = None
            try:
                cells = next(reader)
            except StopIteration:
                return
            except _TooLong:
                error = f"a row longer than limits.max_line_bytes = {max_row_bytes} bytes"
            except csv.Error as failure:
                error = str(failure)
            never_closed = error is not None and _OPEN_AT_END in error
            swallowed = 0 if never_closed else lines.swallowed(None if error else len(cells))
            if never_closed or swallowed:
                yield start, _unclosed(start, swallowed, lines.width)
                handle.seek(offset)
                handle.readline()  # the row's first line; the next rows are read again
                lines.line = start
                reader = csv.reader(lines, strict=True)
            elif error:
                lines.read_through()
                yield start, TraceValidationError("<csv>", error, line=start)
            elif not cells:
                continue
            elif lines.undecodable is not None:
                yield start, TraceValidationError("<line>", lines.undecodable, line=start)
            elif header is None:
                header, lines.width = cells, len(cells)
            elif len(cells) > len(header):
                message = (
                    f"{len(cells)} cells where the header has {len(header)} "
                    "(a stray quote or comma?)"
                )
                yield start, TraceValidationError("<csv>", message, line=start)
            else:
                yield start, {name: _cell(cells, i) for i, name in enumerate(header)}


def _unclosed(start: int, swallowed: int, width: int | None) -> TraceValidationError:
    """The error of a row whose quoted cell, opened on line ``start``, is never closed or
    swallowed ``swallowed`` lines that each read as a whole row of ``width`` cells."""
    message = f"a quoted cell opened on line {start} is never closed"
    if swallowed:
        message = (
            f"a quoted cell opened on line {start} holds {swallowed:,} lines that each read "
            f"as a whole row of {width} cells (a stray quote?): the row on line {start} is "
            "skipped and the lines after it are read as rows"
        )
    return TraceValidationError("<csv>", message, line=start)


def _reads_as_row(text: str, width: int) -> bool:
    """Whether one line, read alone, is a whole row of ``width`` cells."""
    try:
        cells = next(csv.reader((text,), strict=True), [])
    except csv.Error:
        return False
    return len(cells) == width


def _cell(cells: list[str], index: int) -> str | None:
    return cells[index] if index < len(cells) else None
