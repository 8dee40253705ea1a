"""``ragguard judge-bench``: the lite tier, the judge alone and the cascade on labelled
(claim, evidence) pairs, against whatever endpoint ``[judge]`` names.

The judge is asked about every pair once (judge alone); the cascade's in-band pairs reuse
those answers through its cache, so the run costs one call per distinct pair. Where the
judge gave no verdict (timeout, unparseable reply, budget) the lite verdict stands, in the
judge-alone column too, and the ``unanswered`` column counts those pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ragguard.judge.cascade import Cascade
from ragguard.judge.questions import in_band, pair_question
from ragguard.metrics import balanced_accuracy
from ragguard.runtime import hash_sample
from ragguard.scoring.interface import Claim, Evidence, SupportScorer

CHUNK = 64


@dataclass(frozen=True)
class Case:
    claim: str
    evidence: str
    label: bool


def bench_set(
    name: str, cases: Sequence[Case], lite: SupportScorer, cascade: Cascade
) -> dict[str, Any]:
    """One row of the report for one labelled set."""
    scores = np.concatenate(
        [
            lite.support(
                [Claim(c.claim) for c in cases[i : i + CHUNK]],
                [Evidence(str(n), c.evidence) for n, c in enumerate(cases[i : i + CHUNK])],
            )
            for i in range(0, len(cases), CHUNK)
        ]
    )
    labels = np.array([c.label for c in cases])
    lite_says = scores >= lite.threshold
    questions = [pair_question(cascade.config, c.claim, c.evidence) for c in cases]
    answers = []
    for i in tqdm(range(0, len(cases), CHUNK), desc=f"judge {name}", leave=False, disable=None):
        answers += [got.answer for got in cascade.ask(questions[i : i + CHUNK])]
    judged = np.array([a.parsed is not None for a in answers])
    judge_says = np.array(
        [a.parsed.verdict if a.parsed else lite for a, lite in zip(answers, lite_says, strict=True)]
    )
    model = cascade.config.model
    sent = np.array(
        [
            in_band(float(s), cascade.config.band)
            and hash_sample(q.key(model), cascade.config.sample_rate, bits=32)
            for s, q in zip(scores, questions, strict=True)
        ]
    )
    cascade_says = np.where(sent & judged, judge_says, lite_says)
    tokens = np.array([a.input_tokens + a.output_tokens for a in answers])
    return {
        "set": name,
        "n": len(cases),
        "lite": balanced_accuracy(lite_says, labels),
        "judge": balanced_accuracy(judge_says, labels),
        "cascade": balanced_accuracy(cascade_says, labels),
        "sent": float(sent.mean()),
        "unanswered": int((~judged).sum()),
        "judge_tokens": int(tokens.sum()),
        "cascade_tokens": int(tokens[sent].sum()),
        "tokens_per_call": float(tokens[tokens > 0].mean()) if (tokens > 0).any() else 0.0,
    }
