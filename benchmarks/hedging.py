"""Hedged versions of factual claims, for the benchmarks that check hedges are still scored.

``hedge("The tower was completed in 1889.", "likely")`` gives "The tower was likely completed
in 1889.": the claim says the same, less firmly, so it stays checkable and a contradiction in
it must still be caught. Three hedges, three places: an adverb after the first auxiliary
("likely"), a reporting frame before the sentence ("some sources say") and a modal replacing
the auxiliary ("may have"). A claim with no auxiliary gets no adverb or modal (None).
"""

from __future__ import annotations

import re

HEDGES: tuple[str, ...] = ("likely", "some sources say", "may have")

_AUXILIARY = re.compile(r"\b(is|are|was|were|has|have|had)\b")
_PARTICIPLE_AHEAD = re.compile(r"\s+(?:been|\w+(?:ed|en|wn|ung|ought|ade))\b")
_MODAL_FOR = {"is": "may be", "are": "may be", "was": "may have been", "were": "may have been"}
_LOWERABLE = frozenset(
    {
        *("the", "a", "an", "it", "its", "this", "that", "these", "those", "there", "he"),
        *("she", "they", "his", "her", "their", "in", "on", "at", "by", "for", "from"),
        *("after", "before", "during", "when", "while", "as", "of", "to", "with"),
    }
)


def hedge(claim: str, cue: str) -> str | None:
    """``claim`` carrying ``cue`` (one of ``HEDGES``), or None where it has no place for it."""
    if cue == "some sources say":
        first, _, rest = claim.partition(" ")
        lowered = first.lower() if first.lower() in _LOWERABLE else first
        return f"Some sources say {lowered} {rest}".rstrip()
    match = _AUXILIARY.search(claim)
    if match is None:
        return None
    auxiliary = match.group()
    if cue == "likely":
        replacement = f"{auxiliary} likely"
    elif cue == "may have":
        if auxiliary in _MODAL_FOR:
            replacement = _MODAL_FOR[auxiliary]
        elif auxiliary == "had" and not _PARTICIPLE_AHEAD.match(claim, match.end()):
            replacement = "may have had"
        else:
            replacement = "may have"
    else:
        raise ValueError(f"unknown hedge {cue!r}; known: {', '.join(HEDGES)}")
    return claim[: match.start()] + replacement + claim[match.end() :]
