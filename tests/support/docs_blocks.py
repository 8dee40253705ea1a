"""The code blocks of the user docs (README.md, CHANGELOG.md and every page under docs/),
read the way a reader sees them."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^```(\w+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
PARSE_ONLY = "<!-- docs-test: parse only -->\n"
"""Put on the line before a fragment (a one-liner naming a reader's own chain): the test
compiles it instead of running it."""


def user_docs() -> list[Path]:
    """Every Markdown file a user reads, README first."""
    pages = sorted((ROOT / "docs").rglob("*.md"))
    return [ROOT / "README.md", ROOT / "CHANGELOG.md", *pages]


def name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def blocks(path: Path, language: str, fragments: bool = False) -> list[tuple[int, str]]:
    """(line number, code) of every ``language`` block of one file: the runnable ones, or
    with ``fragments`` the parse-only ones."""
    text = path.read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, match.start()) + 2, match.group(2))
        for match in FENCE.finditer(text)
        if match.group(1) == language and text[: match.start()].endswith(PARSE_ONLY) == fragments
    ]
