"""Untrusted text (trace ids, file names) made safe to print: in a terminal, where an ANSI
escape or a carriage return can rewrite what was printed before, and in Markdown (a PR
comment), where a trace id could add headings, links or table rows of its own."""

from __future__ import annotations

import re

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""C0 and C1 controls (ESC starts every ANSI sequence), line and paragraph separators and
the bidi embeddings, overrides and isolates, which reorder what a terminal shows."""
_MARKUP = re.compile(r"([\\`*_\[\]<>|&~!#])")
"""The characters that start inline Markdown (code, emphasis, links, images, HTML,
entities, strikethrough) or end a table cell; escaped with a backslash as CommonMark
allows. Block markup (headings, lists, rows) needs a line start: line breaks are
controls, written out."""


def _escaped(match: re.Match[str]) -> str:
    return f"\\u{ord(match[0]):04x}"


def plain_text(value: str) -> str:
    """``value`` with each control character written as ``\\uXXXX``, visible and inert."""
    return _CONTROL.sub(_escaped, value)


def markdown_text(value: str) -> str:
    """``value`` as literal Markdown text: controls shown as ``\\uXXXX``, markup characters
    backslash-escaped (no heading, emphasis, link, HTML or table cell can start)."""
    return _MARKUP.sub(r"\\\1", plain_text(value))
