"""RS and CS against images with CLIP: calibrated cosine agreement of image and text.

Loaded with ``transformers.CLIPModel`` and the PIL ``CLIPImageProcessor`` (no torchvision).
Image embeddings are cached by the content hash of the pixels, so an image retrieved again
(or a frame scored against many claims) goes through the vision tower once.

Calibration: score = sigmoid(scale * (cosine - center)), with ``scale`` the model's own
logit scale and ``center`` 0.2 by default (where CLIPScore, w = 2.5, gives 0.5). It is a
documented default, not a fit: fit both on labelled pairs of your data for real use.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ragguard.runtime import Cache
from ragguard.scoring.hub.transformers_backends import HubModel
from ragguard.scoring.interface.evidence import Claim
from ragguard.scoring.lexical import text as tx

if TYPE_CHECKING:
    from ragguard.media import Frame


def _image_processor_class() -> Any:
    """The PIL-backed CLIP image processor (transformers 5 names it ``...Pil``; the plain
    name asks for torchvision there, which ragguard never installs)."""
    import transformers

    return getattr(transformers, "CLIPImageProcessorPil", None) or transformers.CLIPImageProcessor


def _features(output: Any) -> Any:
    """transformers 5 wraps projected features in an output object; 4.x returns a tensor."""
    return output if hasattr(output, "norm") else output.pooler_output


class ClipScorer(HubModel):
    """A CLIP model (hub id or local path) as RS and CS backend for image and video frames."""

    def __init__(
        self,
        model: str,
        *,
        scale: float | None = None,
        center: float = 0.2,
        cache_size: int = 4096,
        **settings: Any,
    ) -> None:
        super().__init__(model, **settings)
        self.scale = scale
        self.center = center
        self._image_cache: Cache[str, np.ndarray] = Cache(f"{__name__}.images", cache_size)

    def _load(self) -> Any:
        if self._loaded is None:
            from transformers import AutoTokenizer, CLIPModel

            processor, tokenizer, model = self._pretrained(
                "image", _image_processor_class(), AutoTokenizer, CLIPModel
            )
            model.eval().to(self.device)
            own_scale = float(model.logit_scale.detach().exp())
            scale = self.scale if self.scale is not None else own_scale
            max_length = min(self.max_length, model.config.text_config.max_position_embeddings)
            self._loaded = (processor, tokenizer, model, scale, max_length)
        return self._loaded

    def image_embeddings(self, frames: Sequence[Frame]) -> np.ndarray:
        """Unit image vectors, (n, d); each distinct picture is embedded once."""
        import torch

        processor, _, model, _, _ = self._load()
        known = self._image_cache.get_many([f.key for f in frames])
        missing = list({f.key: f for f in frames if f.key not in known}.values())
        for start in range(0, len(missing), self.batch_size):
            batch = missing[start : start + self.batch_size]
            pixels = processor(images=[f.image for f in batch], return_tensors="pt")
            with torch.inference_mode():
                features = _features(
                    model.get_image_features(pixel_values=pixels["pixel_values"].to(self.device))
                )
            vectors = torch.nn.functional.normalize(features.float(), dim=-1).cpu().numpy()
            fresh = {f.key: v for f, v in zip(batch, vectors, strict=True)}
            self._image_cache.put_many(fresh)
            known.update(fresh)
        return np.stack([known[f.key] for f in frames])

    def text_embeddings(self, texts: Sequence[str]) -> np.ndarray:
        """Unit text vectors, (n, d); each distinct text is embedded once per call."""
        import torch

        _, tokenizer, model, _, max_length = self._load()
        distinct = list(dict.fromkeys(texts))
        vectors: dict[str, np.ndarray] = {}
        for start in range(0, len(distinct), self.batch_size):
            batch = distinct[start : start + self.batch_size]
            tokens = tokenizer(
                batch, padding=True, truncation=True, max_length=max_length, return_tensors="pt"
            ).to(self.device)
            with torch.inference_mode():
                features = _features(model.get_text_features(**tokens))
            unit = torch.nn.functional.normalize(features.float(), dim=-1).cpu().numpy()
            vectors.update(zip(batch, unit, strict=True))
        return np.stack([vectors[t] for t in texts])

    def calibrated(self, cosine: np.ndarray) -> np.ndarray:
        """Cosine agreement -> [0, 1] (logistic; see the module docstring)."""
        scale = self._load()[3]
        return (1.0 / (1.0 + np.exp(-scale * (cosine - self.center)))).astype(np.float32)

    def relevance(self, queries: Sequence[str], frames: Sequence[Frame]) -> np.ndarray:
        if not queries:
            return np.zeros(0, dtype=np.float32)
        cosine = (self.text_embeddings(queries) * self.image_embeddings(frames)).sum(axis=1)
        return self.calibrated(cosine)

    def support(self, claims: Sequence[Claim], images: Sequence[Sequence[Frame]]) -> np.ndarray:
        """Each claim's agreement with the best image of its group (single-source max)."""
        if not claims:
            return np.zeros(0, dtype=np.float32)
        texts = [tx.decontextualized(c.text, c.context) for c in claims]
        owner = np.repeat(np.arange(len(claims)), [len(group) for group in images])
        frames = [frame for group in images for frame in group]
        cosine = (self.text_embeddings(texts)[owner] * self.image_embeddings(frames)).sum(axis=1)
        scores = np.zeros(len(claims), dtype=np.float32)
        np.maximum.at(scores, owner, self.calibrated(cosine))
        return scores
