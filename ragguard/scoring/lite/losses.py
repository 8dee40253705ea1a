"""Training losses for scoring heads: RAG-Check's pairwise loss and class-balanced BCE."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from torch import Tensor

MARGIN = 0.05
"""Below this logit gap the pairwise loss continues linearly (see ``pairwise_loss``)."""


def pairwise_loss(positive: Tensor, negative: Tensor, margin: float = MARGIN) -> Tensor:
    """RAG-Check's L = -log(sigma(y_pos) - sigma(y_neg)), mean over a batch of triplets.

    Written in log space, log(sigma(a) - sigma(b)) = log(1 - e^(b-a)) + a - softplus(a)
    - softplus(b), so it is exact and stable while a - b > margin. The paper's loss is
    undefined once a pair is ranked the wrong way (a <= b); there the log(1 - e^-d) term is
    continued linearly in d, so a wrongly ordered triplet still gets a gradient toward the
    right order instead of NaN.
    """
    import torch
    import torch.nn.functional as F

    gap = positive - negative
    floor = math.log(-math.expm1(-margin))
    order_term = torch.where(
        gap > margin,
        torch.log(-torch.expm1(-gap.clamp(min=margin))),
        floor + (gap - margin),
    )
    log_difference = order_term + positive - F.softplus(positive) - F.softplus(negative)
    return -log_difference.mean()


def balanced_bce(logits: Tensor, labels: Tensor) -> Tensor:
    """Binary cross-entropy with positives weighted by the batch's class ratio."""
    import torch

    positives = labels.sum()
    weight = (len(labels) - positives) / positives.clamp(min=1.0)
    return torch.nn.functional.binary_cross_entropy_with_logits(
        logits, labels, pos_weight=weight.clamp(min=0.1, max=10.0)
    )
