"""Would token-level features lift the answer-relevance head past the off-question target?

    python benchmarks/answer_token_features.py --data DIR

An exploration, not shipped: the head of ``ragguard.train.answer`` refitted with its six
features plus soft token matches between the question and the answer, from the token
vectors the embedder computes anyway: how well the answer's tokens cover the question's
content tokens (mean of each one's best cosine), how well the question covers the answer's,
and the share of answer tokens no question token comes near (cosine under 0.5). Trained on
the training fifth-split's training questions (QNLI, SelQA, CLAPnq), read on the held-out
fifth, which is training data set aside by hash (no dev set holds questions). Per variant:
own answers kept and off-question sentences flagged at the training threshold (own kept
0.92), then the off-question share flagged at the held-out threshold that keeps 0.90 and
0.92 of the own answers (the issue's target: 0.80 at 0.90).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np

from ragguard.metrics.summary import markdown_table as table
from ragguard.scoring.encoders.embeddings import TextEmbedder
from ragguard.train.answer import (
    KEEP_OWN,
    Example,
    examples,
    featurize,
    fit_logistic,
    questions,
)

VARIANTS = {
    "the shipped six": [],
    "+ question covered": [0],
    "+ answer covered": [1],
    "+ answer tokens far from the question": [2],
    "+ both coverages": [0, 1],
    "+ all three": [0, 1, 2],
}


def token_features(embedder: TextEmbedder, rows: Sequence[Example]) -> np.ndarray:
    texts = list(dict.fromkeys(t for r in rows for t in (r.question, *r.sentences)))
    encoded = dict(zip(texts, embedder.encode_full(texts), strict=True))
    out = []
    for row in rows:
        q = encoded[row.question]
        asked = q.tokens[q.content].astype(np.float32)
        given = np.concatenate(
            [encoded[s].tokens[encoded[s].content] for s in row.sentences]
        ).astype(np.float32)
        if not (len(asked) and len(given)):
            out.append([0.0, 0.0, 0.0])
            continue
        cosines = asked @ given.T
        best_given = cosines.max(axis=0)
        out.append([cosines.max(axis=1).mean(), best_given.mean(), (best_given < 0.5).mean()])
    return np.array(out, dtype=np.float32)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, required=True)
    args = parser.parse_args()
    embedder = TextEmbedder()
    # no items: the exploration predates the item features, and compares with the six
    train = examples(questions(args.data, held=False), per_source=1500, without_items=1.0)
    held = examples(questions(args.data, held=True), per_source=100_000, seed=1, without_items=1.0)
    x_train, x_held = featurize(embedder, train), featurize(embedder, held)
    t_train, t_held = token_features(embedder, train), token_features(embedder, held)
    y = np.array([r.label for r in train], dtype=np.float64)
    kind_train = np.array([r.kind for r in train])
    kind_held = np.array([r.kind for r in held])
    print(f"{len(train)} training answers, {len(held)} held-out answers\n")
    rows = []
    for name, columns in VARIANTS.items():
        a = np.hstack([x_train, t_train[:, columns]])
        b = np.hstack([x_held, t_held[:, columns]])
        mean, std = a.mean(axis=0), a.std(axis=0) + 1e-6
        coef, bias = fit_logistic((a - mean) / std, y)
        p_train = ((a - mean) / std) @ coef + bias  # logits: the order is what counts
        p_held = ((b - mean) / std) @ coef + bias
        eta = np.quantile(p_train[kind_train == "own"], 1 - KEEP_OWN)
        own, off = p_held[kind_held == "own"], p_held[kind_held == "off"]
        rows.append(
            {
                "variant": name,
                "own kept": float(np.mean(own >= eta)),
                "off flagged": float(np.mean(off < eta)),
                **{
                    f"off flagged, own {keep:.2f}": float(np.mean(off < np.quantile(own, 1 - keep)))
                    for keep in (0.90, 0.92)
                },
            }
        )
    print(table(rows, list(rows[0])))


if __name__ == "__main__":
    main()
