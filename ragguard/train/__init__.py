"""Training and calibration of the lite heads (``ragguard train``)."""

from __future__ import annotations

import typing as _typing

from ragguard._exports import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from ragguard.train.answer import train_answer
    from ragguard.train.datasets import read_labels
    from ragguard.train.lite import train_lite

__all__ = [
    "read_labels",
    "train_answer",
    "train_lite",
]

__getattr__, __dir__ = _lazy_exports(__name__, __file__, __all__)
