"""Reading a verdict out of what a judge model wrote.

Models asked for a JSON object still wrap it in prose or code fences, use other spellings
("Not Supported", "yes"), stop mid-object at the token limit or write free text. The parser
takes the verdict from the last JSON object that has one, else from a ``verdict: ...`` or
``<answer>...</answer>`` line; anything else is unparseable (``None``): it never guesses
from a bare word, since "supported" also occurs in "not supported".
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

MAX_RATIONALE = 400

_POSITIVE = {"supported", "relevant", "yes", "true", "entailed", "correct"}
_NEGATIVE = {
    "not_supported",
    "unsupported",
    "not_relevant",
    "irrelevant",
    "no",
    "false",
    "contradicted",
    "incorrect",
}
_WORDS = r"([A-Za-z_-]+(?:\s+[A-Za-z_-]+)?)"
_VERDICT = re.compile(r"""verdict["'*]*\s*[:=]\s*["'*]*\s*""" + _WORDS, re.I)
_ANSWER = re.compile(r"<answer>\s*" + _WORDS + r"\s*</answer>", re.I)
_REASONING = re.compile(r"""reasoning["']?\s*[:=]\s*["']([^"']*)""", re.I)


@dataclass(frozen=True)
class Parsed:
    verdict: bool
    rationale: str


def _label(words: str) -> bool | None:
    """True / False for a verdict word (or two: "not supported"); a trailing word that is
    not part of the verdict ("supported because") is dropped."""
    key = re.sub(r"[\s-]+", "_", words.strip().lower()).strip("_")
    for candidate in (key, key.split("_", 1)[0]):
        if candidate in _POSITIVE:
            return True
        if candidate in _NEGATIVE:
            return False
    return None


def _objects(text: str) -> list[dict[str, Any]]:
    """Every JSON object that decodes at some ``{`` of ``text``, in order."""
    decoder = json.JSONDecoder()
    found = []
    for match in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            found.append(value)
    return found


def parse_verdict(text: str | None) -> Parsed | None:
    """The verdict and rationale in a judge's reply; None when there is no clear verdict."""
    if not text:
        return None
    for obj in reversed(_objects(text)):
        verdict = obj.get("verdict")
        label = _label(verdict) if isinstance(verdict, str) else None
        if label is not None:
            reasoning = obj.get("reasoning", obj.get("rationale", ""))
            return Parsed(label, str(reasoning).strip()[:MAX_RATIONALE])
    for pattern in (_VERDICT, _ANSWER):
        matches = [m for m in pattern.finditer(text) if _label(m.group(1)) is not None]
        if matches:
            last = matches[-1]
            label = _label(last.group(1))
            assert label is not None
            reasoning = _REASONING.search(text)
            rationale = reasoning.group(1) if reasoning else text[: last.start()]
            return Parsed(label, rationale.strip(" \n\t{,\"'*")[:MAX_RATIONALE])
    return None
