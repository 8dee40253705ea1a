"""Build ``examples/traces.jsonl`` from Factcheck-GPT (Apache-2.0) plus a few hand-written traces.

Factcheck-GPT (yuxiaw/Factcheck-GPT) gives ChatGPT answers split into claims, each with five
retrieved web passages labelled completely-support / partially-support / refute / irrelevant.
Consecutive claims of one answer become one response; each claim cites the passage the
annotators marked as completely supporting it, or, when none does, a passage they did not
(a realistic bad citation). The dataset has no questions, so each query is the first claim
turned into a yes/no question. Run: python examples/build_traces.py [../shared/data]
"""

from __future__ import annotations

import json
import sys
from itertools import groupby
from pathlib import Path

HERE = Path(__file__).parent
CLAIMS_PER_TRACE = 3
TRACES = 40

HAND_WRITTEN = [
    {
        "trace_id": "hand-eiffel",
        "query": "Where is the Eiffel Tower and when was it built?",
        "items": [
            {
                "id": "d1",
                "text": "The Eiffel Tower is a wrought-iron lattice tower on the "
                "Champ de Mars in Paris, France. It was constructed from 1887 to 1889 as the "
                "centerpiece of the 1889 World's Fair.",
            },
            {
                "id": "d2",
                "text": "Berlin is the capital of Germany. Its television tower, the "
                "Fernsehturm, was completed in 1969.",
            },
        ],
        "response": "The Eiffel Tower is in Berlin [d2]. It was completed in 1889 [d1]. "
        "I think it is the most beautiful tower in Europe.",
    },
    {
        "trace_id": "hand-abstain",
        "query": "What was the company's revenue in 2031?",
        "items": [
            {
                "id": "r1",
                "text": "The company was founded in 1998 in Oslo and makes marine "
                "navigation equipment.",
            },
        ],
        "response": "I cannot answer that from the provided documents.",
    },
]


def _question(claim: str) -> str:
    return f"Is it true that {claim[0].lower()}{claim[1:].rstrip('.')}?"


def build(data_dir: Path) -> list[dict]:
    path = data_dir / "factcheck-gpt" / "subtask3_claim_evidence_stance.jsonl"
    rows = [json.loads(line) for line in path.open(encoding="utf-8")]
    claims = [(claim, list(group)) for claim, group in groupby(rows, key=lambda r: r["claim"])]
    traces = []
    for start in range(0, CLAIMS_PER_TRACE * TRACES, CLAIMS_PER_TRACE):
        group = claims[start : start + CLAIMS_PER_TRACE]
        items, sentences = [], []
        for claim, evidence in group:
            supporting = [e for e in evidence if e["stance"] == "completely-support"]
            other = [e for e in evidence if e["stance"] != "completely-support"]
            chosen = (supporting[:1] + other[:1]) if supporting else other[:2]
            first_id = len(items) + 1
            items += [
                {
                    "id": f"e{len(items) + k + 1}",
                    "text": e["evidence"],
                    "metadata": {"stance_label": e["stance"], "claim": claim},
                }
                for k, e in enumerate(chosen)
            ]
            sentences.append(f"{claim.rstrip('.')} [{first_id}].")
        traces.append(
            {
                "trace_id": f"factcheck-gpt-{start // CLAIMS_PER_TRACE:03d}",
                "query": _question(group[0][0]),
                "items": items,
                "response": " ".join(sentences),
            }
        )
    return traces + HAND_WRITTEN


if __name__ == "__main__":
    data = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE.parent.parent / "shared" / "data"
    out = HERE / "traces.jsonl"
    with out.open("w", encoding="utf-8") as handle:
        for trace in build(data):
            handle.write(json.dumps(trace, ensure_ascii=False) + "\n")
    print(f"wrote {out}")
