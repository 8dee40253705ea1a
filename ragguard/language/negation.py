"""Negation cues of a language other than English (English has its own, older rules in
``ragguard.scoring.checks.polarity``, which the shipped heads and checks were tuned on)."""

from __future__ import annotations

from ragguard.language.wordlists import lexicon


def negation_positions(words: tuple[str, ...], code: str) -> list[int]:
    """Positions of the language's negation cues in lower-cased ``words``: its negation
    words, and a word such as French "plus" when "ne"/"n'" came just before it ("il n'est
    plus"), less a cue that negates nothing with the words after it ("nicht nur", "non
    seulement"). Empty for a language without a lexicon."""
    found = lexicon(code)
    if found is None:
        return []
    cues = []
    longest = max((len(p) for p in found.not_negating), default=1)
    for i, word in enumerate(words):
        particle = word in found.particle_negations and any(
            w in found.particles for w in words[max(i - 3, 0) : i]
        )
        if word not in found.negations and not particle:
            continue
        if any(words[i : i + n] in found.not_negating for n in range(2, longest + 1)):
            continue
        if i and (words[i - 1], word) in found.not_negating:
            continue  # "sans doute" read from its second word is no cue either
        cues.append(i)
    return cues
