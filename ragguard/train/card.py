"""Model cards: what a shipped head or adapter was trained on, under which licences, and
how it scored, as a Markdown file beside the weights."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def _lines(value: Any, depth: int) -> list[str]:
    pad = "  " * depth
    if isinstance(value, dict):
        out = []
        for key, item in value.items():
            if isinstance(item, dict | list):
                out += [f"{pad}- **{key}**:", *_lines(item, depth + 1)]
            else:
                out.append(f"{pad}- **{key}**: {item}")
        return out
    if isinstance(value, list):
        return [f"{pad}- {item}" for item in value]
    return [f"{pad}- {value}"]


def write_card(path: Path, title: str, card: dict[str, Any], notes: str = "") -> None:
    """Write ``card`` (nested dicts and lists) as a Markdown model card at ``path``."""
    text = [f"# {title}", ""]
    if notes:
        text += [notes.strip(), ""]
    text += _lines(card, 0)
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
