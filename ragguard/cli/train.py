"""``ragguard train``: fit a lite scoring head on your labels or the training sets."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from ragguard.cli._common import EXIT_ERROR, check_writable
from ragguard.scoring.checks import CONTRADICTIONS

ARGUMENTS: tuple[tuple[tuple[str, ...], dict[str, Any]], ...] = (
    (
        ("role",),
        {
            "choices": ["support", "relevance", "answer"],
            "help": "answer: the answer-relevance head, from --data's question sets only",
        },
    ),
    (
        ("--labels",),
        {
            "nargs": "+",
            "default": [],
            "metavar": "FILE",
            "help": "your labels, JSONL: for support the labelled format (a trace with "
            "response_spans and a parallel labels list, as ragguard calibrate reads) or "
            '{"claim", "evidence", "label"} lines; '
            '{"query", "passage", "label"} for relevance; label 1 or 0',
        },
    ),
    (
        ("--data", "--data-dir"),
        {
            "dest": "data_dir",
            "help": "folder of the training sets named in the model cards (e.g. snli/, selqa-ass/)",
        },
    ),
    (("-o", "--out", "--output"), {"dest": "out", "required": True, "help": "head JSON to write"}),
    (
        ("--embedding-model",),
        {
            "help": "the sentence-transformers model (hub id or path) the head's features come "
            "from: the config's embedding_model (default: the bundled int8 MiniLM)",
        },
    ),
    (
        ("--backbone",),
        {
            "choices": ["minilm", "multilingual"],
            "default": "minilm",
            "help": "multilingual: features from multilingual-E5 (ragguard-eval[multilingual]; "
            "with --embedding-model, that E5 model), sentence-level only: leave out the "
            "token_align features, as the bundled multilingual heads do",
        },
    ),
    (
        ("--per-source",),
        {"type": int, "help": "pairs drawn per data set (default 3000; answer: 1500)"},
    ),
    (("--sources",), {"nargs": "*", "help": "data sets to use (default: all for role)"}),
    (("--features",), {"nargs": "*", "help": "feature subset (default: all for role)"}),
    (("--hidden",), {"type": int, "default": 0, "help": "MLP units; 0 = logistic"}),
    (
        ("--no-pairwise",),
        {"action": "store_true", "help": "binary cross-entropy only (no triplets)"},
    ),
    (
        ("--edits",),
        {
            "type": float,
            "default": 0.5,
            "help": "support: share of supported pairs that also get a hard-negative edit "
            "(0: none)",
        },
    ),
    (
        ("--veto",),
        {
            "nargs": "*",
            "default": list(CONTRADICTIONS),
            "choices": list(CONTRADICTIONS),
            "help": "support: checks whose firing caps support below eta (none: --veto with "
            "no value)",
        },
    ),
    (("--seed",), {"type": int, "default": 0}),
)
"""``ragguard train``'s arguments: (flags, ``add_argument`` keywords), in --help's order."""


def add_to(commands: Any) -> None:
    train = commands.add_parser(
        "train",
        help="train a lite scoring head",
        description="Train a head over the lite features with RAG-Check's pairwise loss on "
        "triplets plus binary cross-entropy; writes OUT (weights JSON with the calibrated eta) "
        "and OUT with a .md suffix (the model card). Train on your own labels (--labels), "
        "on the training sets (--data), or both mixed.",
    )
    for flags, options in ARGUMENTS:
        train.add_argument(*flags, **options)
    train.set_defaults(run=run)


FEW_LABELS = 200
"""Pairs of each label below which a head's eta rests on too few examples to trust."""
ONE_SIDED = 0.2
"""A minority label under this share of the labels is one-sided."""
EXTREME_ETA = (0.1, 0.9)
"""An eta outside these bounds calls nearly everything one label."""


def label_warnings(counts: Counter[int], data_dir: str | None) -> list[str]:
    """What a user's label files lack for a head they can trust (the training sets of
    ``--data`` make up for it)."""
    total = counts[0] + counts[1]
    if data_dir is not None or total == 0:
        return []
    warnings = []
    if min(counts[0], counts[1]) < FEW_LABELS:
        warnings.append(
            f"only {counts[1]} pairs labelled 1 and {counts[0]} labelled 0: a few hundred of "
            "each make a head whose threshold can be trusted (or add --data DIR)"
        )
    if min(counts[0], counts[1]) < ONE_SIDED * total:
        warnings.append(
            f"the labels are one-sided ({counts[1]} of {total} are 1): the threshold is "
            "calibrated on the few of the other label"
        )
    return warnings


def eta_warning(eta: float) -> str | None:
    low, high = EXTREME_ETA
    if low <= eta <= high:
        return None
    verdict = "relevant or supported" if eta < low else "irrelevant or unsupported"
    return f"the calibrated threshold {eta:.3f} is extreme: the head calls nearly all {verdict}"


def run(args: argparse.Namespace) -> int:
    if args.role == "answer":
        return _answer(args)
    from ragguard.scoring.encoders import TextEmbedder
    from ragguard.train import read_labels, train_lite

    check_writable(args.out)
    pairs = (pair for path in args.labels for pair in read_labels(Path(path), args.role))
    counts = Counter(pair.label for pair in pairs)
    for warning in label_warnings(counts, args.data_dir):
        print(f"ragguard: warning: {warning}", file=sys.stderr)

    embedder = TextEmbedder(args.embedding_model) if args.embedding_model else None
    if args.backbone == "multilingual":
        from ragguard.scoring.encoders import multilingual_embedder

        embedder = multilingual_embedder(args.embedding_model, cache_size=200_000)
    validation = train_lite(
        args.role,
        Path(args.data_dir) if args.data_dir else None,
        Path(args.out),
        labels=[Path(path) for path in args.labels],
        per_source=args.per_source or 3000,
        seed=args.seed,
        sources=args.sources,
        features=args.features,
        hidden=args.hidden,
        pairwise=not args.no_pairwise,
        edits=args.edits,
        veto=args.veto,
        embedder=embedder,
    ).validation
    print(f"wrote {args.out} and its model card {Path(args.out).with_suffix('.md')}")
    for key, value in validation.items():
        print(f"  validation {key}: {value}")
    extreme = eta_warning(float(validation["eta"]))
    if extreme is not None:
        print(f"ragguard: warning: {extreme}", file=sys.stderr)
    return 0


def _answer(args: argparse.Namespace) -> int:
    """The answer-relevance head: trained on the question sets of --data, nothing else."""
    from ragguard.train import train_answer

    if args.labels or not args.data_dir:
        print("ragguard: error: train answer reads --data DIR, not --labels", file=sys.stderr)
        return EXIT_ERROR
    check_writable(args.out)
    head = train_answer(
        Path(args.data_dir),
        Path(args.out),
        args.per_source or 1500,
        args.seed,
        multilingual=args.backbone == "multilingual",
    )
    print(f"wrote {args.out} and its model card {Path(args.out).with_suffix('.md')}")
    print(json.dumps(head.card, indent=1))
    return 0
