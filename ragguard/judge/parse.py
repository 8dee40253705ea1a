"""Reading a verdict out of what a judge model wrote, without letting quoted text decide it.

The judge reads untrusted text (passages, the answer) and may quote it back; that text may
hold a ready-made verdict. So the verdict is read from one fixed place only, and a reply
that holds a second verdict anywhere else, or repeats the prompt's fence nonce (it quotes a
data block), is unparseable (``None``): the lite verdict stands and nothing is guessed.

- ``whole_json`` (``response_format = "json_schema"``): the reply must *be* one JSON object
  (surrounding blank space aside) with a ``verdict`` key given once;
- free text: the verdict is on the reply's last non-empty line (a closing code fence
  aside): either that line is one JSON object with a verdict (a missing final ``}`` is
  forgiven: the token limit cut it), or it starts with ``verdict: ...`` or is
  ``<answer>...</answer>``. The lines before it are the rationale.

Other spellings ("Not Supported", "yes") are read; a bare word never is, since "supported"
also occurs in "not supported".
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
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
_VERDICT_LINE = re.compile(r"""^[\s"'*#>_-]*""" + _VERDICT.pattern, re.I)
_ANSWER = re.compile(r"<answer>\s*" + _WORDS + r"\s*</answer>", re.I)
_ANSWER_LINE = re.compile(r"^\s*" + _ANSWER.pattern + r"\s*$", re.I)


@dataclass(frozen=True)
class Parsed:
    verdict: bool
    rationale: str


class _Duplicate(ValueError):
    """A JSON object that gives one key twice (the last would silently win)."""


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


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise _Duplicate(keys)
    return dict(pairs)


def _object(text: str) -> dict[str, Any] | None:
    """``text`` decoded as exactly one JSON object with unique keys, else None."""
    try:
        value = json.loads(text, object_pairs_hook=_unique_keys)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _holds_verdict(text: str) -> bool:
    """Whether ``text`` holds anything the parser would read as a verdict."""
    for pattern in (_VERDICT, _ANSWER):
        if any(_label(m.group(1)) is not None for m in pattern.finditer(text)):
            return True
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except (ValueError, RecursionError):
            continue
        if isinstance(value, dict) and "verdict" in value:
            return True
    return False


def _from_object(obj: dict[str, Any], before: str) -> Parsed | None:
    """The verdict of a reply object; None when it has none or another field holds one."""
    verdict = obj.get("verdict")
    label = _label(verdict) if isinstance(verdict, str) else None
    if label is None:
        return None
    others = [v if isinstance(v, str) else json.dumps(v) for k, v in obj.items() if k != "verdict"]
    if any(_holds_verdict(text) for text in [before, *others]):
        return None
    reasoning = obj.get("reasoning", obj.get("rationale", ""))
    return Parsed(label, str(reasoning).strip()[:MAX_RATIONALE])


def _final_line(text: str) -> tuple[str, str]:
    """(the reply's last non-empty line, what comes before it); a closing code fence and
    backticks around the line are not part of it."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    while lines and lines[-1].strip() == "```":
        lines.pop()
    if not lines:
        return "", ""
    last = lines[-1].strip()
    if last.startswith("```") and last.endswith("```") and len(last) > 6:
        last = last[3:-3].strip()
        last = last[4:].lstrip() if last.lower().startswith("json") else last
    return last, "\n".join(lines[:-1])


def _from_text(text: str) -> Parsed | None:
    last, before = _final_line(text)
    if last.startswith("{"):
        obj = _object(last) or _object(last + "}")
        return None if obj is None else _from_object(obj, before)
    match = _VERDICT_LINE.match(last) or _ANSWER_LINE.match(last)
    label = _label(match.group(1)) if match else None
    if match is None or label is None or _holds_verdict(before + "\n" + last[match.end() :]):
        return None
    return Parsed(label, before.strip(" \n\t{,\"'*")[:MAX_RATIONALE])


def parse_verdict(
    text: str | None, *, fence: str | None = None, whole_json: bool = False
) -> Parsed | None:
    """The verdict and rationale in a judge's reply; None when there is no single clear
    verdict in its fixed place. ``fence``: the prompt's nonce, which the reply must not
    repeat; ``whole_json``: the reply must be one JSON object (schema-constrained mode)."""
    if not text or (fence and fence in text):
        return None
    if whole_json:
        obj = _object(text.strip())
        return None if obj is None else _from_object(obj, "")
    return _from_text(text)


@dataclass(frozen=True)
class Scored:
    """The score question's reading: P(yes) among the two answer words, and the verdict the
    judge wrote (or, where it wrote neither word, the side its score falls on)."""

    score: float | None
    """None: the endpoint returned no token probabilities (the verdict alone counts)."""
    verdict: bool


_SCORE_WORD = re.compile(r"^[\s\"'*`]*([A-Za-z]+)[\s.!\"'*`]*$")


def _word(token: str) -> bool | None:
    """True / False for a token that is the word yes / no (any case, spacing, quotes)."""
    match = _SCORE_WORD.match(token)
    word = match.group(1).lower() if match else ""
    return True if word == "yes" else False if word == "no" else None


def score_of(text: str | None, top: Sequence[tuple[str, float]] | None) -> Scored | None:
    """P(supported) from a one-token Yes/No reply: ``top`` holds the first token's most
    likely alternatives (token, log-probability), as OpenAI, vLLM, llama.cpp and Ollama
    return them. The score is P(yes) among the two answer words, whatever word came first:
    a small model's greedy token may be "The" by a hair while Yes and No hold the rest, and
    a random fence in the prompt is enough to tip it. Without ``top`` the written word is
    the verdict and there is no score; a reply that is neither word, with neither word among
    the alternatives, is unparseable, as in ``parse_verdict``."""
    written = _word(text or "")
    mass = {True: 0.0, False: 0.0}
    for token, logprob in top or ():
        word = _word(token)
        if word is not None and math.isfinite(logprob) and logprob <= 0.0:
            mass[word] += math.exp(logprob)
    total = mass[True] + mass[False]
    if total <= 0.0:
        return None if written is None else Scored(None, written)
    score = mass[True] / total
    return Scored(score, score >= 0.5 if written is None else written)
