"""The entity check: a name of the claim where the on-topic sentence names another ("in
Berlin" against "in Paris")."""

from __future__ import annotations

from ragguard.scoring.checks.parse import Sentence, parse
from ragguard.scoring.checks.slots import Reading, RivalRule, Slot, rival_value
from ragguard.scoring.protocols import Reason

_BY_LEAD = RivalRule(by_lead=True)


def name_findings(claim: Sentence, sentences: tuple[Sentence, ...]) -> list[Reason]:
    """Names of the claim that the on-topic sentence fills with another name, none of whose
    words or roots the claim holds."""
    findings: list[Reason] = []
    if not claim.names:
        return findings
    rivals = [
        tuple(
            n
            for n, keys in zip(s.names, s.name_keys, strict=True)
            if keys and not keys & claim.keys
        )
        for s in sentences
    ]
    for name, own in zip(claim.names, claim.name_keys, strict=True):
        if not own:
            continue  # a lone letter ("Q2", "A & E") has no key to look up
        readings = tuple(
            Reading(s, bool(own & s.keys), others)
            for s, others in zip(sentences, rivals, strict=True)
        )
        slot = Slot(claim, name, claim.content - parse(name, claim.language).content, readings)
        value = rival_value(slot, _BY_LEAD)
        if value is not None:
            findings.append(Reason("entity", name, value))
    return findings
