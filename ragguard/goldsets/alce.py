"""ALCE's sentence-level citation recall and precision (Gao et al., 2023, "Enabling Large
Language Models to Generate Text with Citations", Sec. 2.3), given support verdicts per sentence.

Claim-level MIRAGE CiteF1 splits sentences into subclaims; ALCE judges whole sentences, so the
two are reported side by side.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CitedSentence:
    """Support verdicts for one sentence of a response and its citations.

    ``joint``: the concatenation of all cited items supports the sentence (False when it cites
    nothing, or cites something that names no item). ``alone[k]``: citation k alone supports
    it. ``without[k]``: the concatenation of the other citations supports it (False when k is
    the only one). ``n_citations`` counts every marker, unresolvable ones included.
    """

    joint: bool
    alone: tuple[bool, ...] = ()
    without: tuple[bool, ...] = ()
    n_citations: int = 0

    def precise(self) -> int:
        """Citations that are not "irrelevant": a citation is irrelevant when it alone does not
        support the sentence and removing it leaves the rest still supporting it (leave-one-out).
        No citation of an unsupported sentence is precise."""
        if not self.joint:
            return 0
        return sum(a or not w for a, w in zip(self.alone, self.without, strict=True))


def citation_recall(sentences: Sequence[CitedSentence]) -> float | None:
    """Share of sentences fully supported by the concatenation of their citations."""
    if not sentences:
        return None
    return sum(s.joint for s in sentences) / len(sentences)


def citation_precision(sentences: Sequence[CitedSentence]) -> float | None:
    """Precise citations over all citations; 0 when sentences cite nothing (as ALCE's code)."""
    if not sentences:
        return None
    total = sum(s.n_citations for s in sentences)
    return sum(s.precise() for s in sentences) / total if total else 0.0
