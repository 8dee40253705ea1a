"""Train the lite heads shipped as ragguard's offline defaults."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
from tqdm.auto import tqdm

from ragguard.scoring.checks import CONTRADICTIONS, check
from ragguard.scoring.encoders import TextEmbedder
from ragguard.scoring.interface import Claim, Evidence
from ragguard.scoring.lite import (
    RELEVANCE_FEATURES,
    SUPPORT_FEATURES,
    FitResult,
    Pair,
    fit_head,
    relevance_features,
    sample_pairs,
    support_features,
    vetoed,
    with_unrelated_negatives,
)
from ragguard.scoring.wiring import hub_installed
from ragguard.train.card import write_card
from ragguard.train.datasets import LICENCES, RELEVANCE_SOURCES, SUPPORT_SOURCES, read_labels
from ragguard.train.perturb import hard_negatives

Role = Literal["support", "relevance"]
CHUNK = 256


def featurizer(
    role: Role, embedder: TextEmbedder, columns: list[int], progress: bool
) -> Callable[[Sequence[Pair]], np.ndarray]:
    """The ``columns`` of the lite features of pairs, in chunks, with a progress bar."""

    def featurize(pairs: Sequence[Pair]) -> np.ndarray:
        chunks = []
        bar = tqdm(total=len(pairs), desc=f"{role} features", unit="pair", disable=not progress)
        for start in range(0, len(pairs), CHUNK):
            batch = pairs[start : start + CHUNK]
            evidence = [Evidence(id=str(i), text=p.context) for i, p in enumerate(batch)]
            if role == "support":
                claims = [Claim(p.statement) for p in batch]
                chunks.append(support_features(embedder, claims, evidence))
            else:
                chunks.append(relevance_features(embedder, [p.statement for p in batch], evidence))
            bar.update(len(batch))
        bar.close()
        return np.vstack(chunks)[:, columns]

    return featurize


def _veto(kinds: frozenset[str]) -> Callable[[np.ndarray, Sequence[Pair]], np.ndarray]:
    """Validation scores as the scorer returns them: a vetoed pair falls below any eta."""

    def adjust(scores: np.ndarray, pairs: Sequence[Pair]) -> np.ndarray:
        reasons = [check(p.statement, p.context) for p in pairs]
        return vetoed(scores, reasons, kinds, float(scores.min(initial=0.0)))

    return adjust


def _sources(
    role: Role, data_dir: Path | None, labels: Sequence[Path], sources: Sequence[str] | None
) -> list[str]:
    """The training sets to read from ``data_dir`` (none without it), refusing a run with
    no data, no torch or an unknown set."""
    registry = SUPPORT_SOURCES if role == "support" else RELEVANCE_SOURCES
    if not hub_installed():
        raise ValueError('training fits the head with torch: pip install "ragguard-eval[hub]"')
    if data_dir is None and not labels:
        raise ValueError("no training data: pass --labels FILE.jsonl and/or --data DIR")
    if data_dir is not None and not data_dir.is_dir():
        raise ValueError(
            f"no data directory {data_dir}: pass --data DIR holding the training sets, "
            "or train on your own labels with --labels FILE.jsonl"
        )
    names = [] if data_dir is None else list(sources or registry)
    unknown = set(names) - set(registry)
    if unknown:
        raise ValueError(f"unknown {role} data sources {sorted(unknown)}; known: {list(registry)}")
    return names


def _split(
    pairs: Iterable[Pair], per_source: int, seed: int, unrelated: float, edits: float
) -> tuple[list[Pair], list[Pair], dict[str, dict[str, int]]]:
    """(training pairs, validation pairs, the hard-negative edits made in each by kind):
    sampled, with unrelated negatives added, and ``edits`` of the supported pairs edited."""
    train, valid = sample_pairs(pairs, per_source, seed)
    train = with_unrelated_negatives(train, unrelated, seed)
    valid = with_unrelated_negatives(valid, unrelated, seed + 1)
    if edits <= 0:
        return train, valid, {}
    train, made = hard_negatives(train, edits, seed)
    valid, made_valid = hard_negatives(valid, edits, seed + 1)
    edited = {"train": dict(sorted(made.items())), "validation": dict(sorted(made_valid.items()))}
    return train, valid, edited


THRESHOLD_RULE = "eta with equal true0/true1 on a 15% validation split (RAG-Check)"


def _card(
    role: Role, backbone: str, hidden: int, data: dict[str, str], per_source: int
) -> dict[str, Any]:
    """The model card's first entries: what was trained, on what."""
    model = "logistic regression" if hidden == 0 else f"MLP, {hidden} tanh units"
    return {
        "role": role,
        "backbone": backbone,
        "model": model,
        "data": data,
        "per_source": per_source,
    }


def _data_card(labels: Sequence[Path], names: Sequence[str]) -> dict[str, str]:
    """The model card's data: each labels file, and each training set with its licence."""
    return {
        **{str(path): "your own labels" for path in labels},
        **{name: LICENCES[name] for name in names},
    }


def train_lite(
    role: Role,
    data_dir: Path | None,
    out: Path,
    *,
    labels: Sequence[Path] = (),
    per_source: int = 3000,
    seed: int = 0,
    unrelated: float = 0.15,
    sources: Sequence[str] | None = None,
    features: Sequence[str] | None = None,
    hidden: int = 0,
    pairwise: bool = True,
    edits: float = 0.5,
    veto: Sequence[str] = CONTRADICTIONS,
    embedder: TextEmbedder | None = None,
    progress: bool = True,
) -> FitResult:
    """Train a head on the user's ``labels`` files and/or the training sets in ``data_dir``,
    calibrate its eta, write ``out`` (weights JSON) and ``out`` with a ``.md`` suffix (the
    model card)."""
    registry = SUPPORT_SOURCES if role == "support" else RELEVANCE_SOURCES
    available = SUPPORT_FEATURES if role == "support" else RELEVANCE_FEATURES
    chosen = list(features or available)
    if set(chosen) - set(available):
        raise ValueError(f"unknown {role} features {sorted(set(chosen) - set(available))}")
    names = _sources(role, data_dir, labels, sources)
    pairs = itertools.chain(
        *(read_labels(path, role) for path in labels),
        *(registry[name](data_dir) for name in names if data_dir is not None),
    )
    train, valid, edited = _split(
        pairs, per_source, seed, unrelated, edits if role == "support" else 0
    )
    embedder = embedder or TextEmbedder()
    card = _card(role, embedder.description, hidden, _data_card(labels, names), per_source)
    card |= {"unrelated_negatives": unrelated, "seed": seed, "threshold": THRESHOLD_RULE}
    if role == "support":
        card |= {
            "hard_negatives": {"share_of_supported_pairs": edits, **edited},
            "veto": list(veto),
        }
    result = fit_head(
        out.stem,  # the bundled heads are named by their files
        chosen,
        featurizer(role, embedder, [available.index(f) for f in chosen], progress),
        train,
        valid,
        seed=seed,
        hidden=hidden,
        card=card,
        pairwise=pairwise,
        shared="context" if role == "support" else "statement",
        adjust=_veto(frozenset(veto)) if role == "support" and veto else None,
    )
    _write(result, role, out)
    return result


def _write(result: FitResult, role: Role, out: Path) -> None:
    """The head to ``out``, its model card beside it (``.md``)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    result.head.save(out)
    write_card(
        out.with_suffix(".md"), f"ragguard {role} head `{result.head.name}`", result.head.card
    )
