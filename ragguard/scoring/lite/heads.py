"""A small scoring head over features: standardize, a few dense layers, sigmoid.

Heads are stored as JSON (weights, feature names, calibrated eta, data and metrics) so they
ship inside the package, load with numpy alone, and can be swapped for retrained ones.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

_ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
    "linear": lambda x: x,
}


@dataclass
class Layer:
    weight: np.ndarray  # (in, out)
    bias: np.ndarray  # (out,)
    activation: str = "linear"


@dataclass
class Head:
    name: str
    features: list[str]
    mean: np.ndarray
    std: np.ndarray
    layers: list[Layer]
    threshold: float = 0.5
    card: dict[str, Any] = field(default_factory=dict)
    """Model card: training data and licences, seed, metrics on validation."""

    def logits(self, x: np.ndarray) -> np.ndarray:
        h = (np.asarray(x, dtype=np.float32) - self.mean) / self.std
        for layer in self.layers:
            h = _ACTIVATIONS[layer.activation](h @ layer.weight + layer.bias)
        return h[:, 0]

    def predict(self, x: np.ndarray) -> np.ndarray:
        """Scores in [0, 1]."""
        if len(x) == 0:
            return np.zeros(0, dtype=np.float32)
        return (1.0 / (1.0 + np.exp(-self.logits(x)))).astype(np.float32)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "features": self.features,
            "mean": self.mean.tolist(),
            "std": self.std.tolist(),
            "layers": [
                {"weight": x.weight.tolist(), "bias": x.bias.tolist(), "activation": x.activation}
                for x in self.layers
            ],
            "threshold": self.threshold,
            "card": self.card,
        }

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Head:
        return cls(
            name=data["name"],
            features=list(data["features"]),
            mean=np.asarray(data["mean"], dtype=np.float32),
            std=np.asarray(data["std"], dtype=np.float32),
            layers=[
                Layer(
                    np.asarray(x["weight"], dtype=np.float32),
                    np.asarray(x["bias"], dtype=np.float32),
                    x["activation"],
                )
                for x in data["layers"]
            ],
            threshold=float(data["threshold"]),
            card=data.get("card", {}),
        )

    @classmethod
    def load(cls, path: str | Path) -> Head:
        return cls.from_json(json.loads(Path(path).read_text()))

    @classmethod
    def bundled(cls, name: str) -> Head:
        """A head shipped in ``ragguard/scoring/lite/bundled/NAME.json``."""
        text = (
            resources.files("ragguard.scoring.lite").joinpath("bundled", f"{name}.json").read_text()
        )
        return cls.from_json(json.loads(text))


def equal_error_threshold(scores: np.ndarray, labels: np.ndarray) -> float:
    """RAG-Check's eta: the threshold where true detection of positives equals negatives."""
    scores = np.asarray(scores, dtype=np.float64)
    labels = np.asarray(labels).astype(bool)
    candidates = np.unique(scores)
    if len(candidates) > 512:
        candidates = np.quantile(scores, np.linspace(0, 1, 513))
    best, best_gap = 0.5, np.inf
    for eta in candidates:
        true_pos = np.mean(scores[labels] >= eta)
        true_neg = np.mean(scores[~labels] < eta)
        gap = abs(true_pos - true_neg)
        if gap < best_gap:
            best, best_gap = float(eta), gap
    return best
