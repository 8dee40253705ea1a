"""Production backends: models loaded from a hub id or a local path with ``transformers``.

None of these weights can be downloaded on the project's own machines; the loading code is
tested there with tiny random-weight models saved to a temp dir.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ragguard.errors import ModelLoadError
from ragguard.scoring.encoders.quiet import quiet_loading
from ragguard.scoring.interface.evidence import Claim, Evidence
from ragguard.scoring.lexical import text as tx

_ENTAILMENT_NAMES = ("entail", "support", "consistent", "correct", "true", "faithful")


def entailment_index(id2label: dict[int, str]) -> int:
    """Which output of an NLI/factual-consistency classifier means "supported"."""
    for index, label in sorted(id2label.items()):
        if any(name in str(label).lower() for name in _ENTAILMENT_NAMES):
            return int(index)
    if len(id2label) == 2:
        return 1  # unnamed binary heads (LABEL_0/LABEL_1): 1 is the positive class
    raise ModelLoadError(
        f"cannot tell which label means entailment among {sorted(id2label.values())}; "
        "use a model whose config names an 'entailment' or 'supported' label"
    )


class HubModel:
    """Settings shared by the backends that load a hub id or a local path, lazily."""

    def __init__(
        self,
        model: str,
        *,
        threshold: float | None = None,
        device: str = "cpu",
        batch_size: int = 16,
        max_length: int = 512,
        trust_remote_code: bool = False,
    ) -> None:
        self.model_name = model
        self.threshold = 0.5 if threshold is None else threshold
        self.device = device
        self.batch_size = batch_size
        self.max_length = max_length
        self.trust_remote_code = trust_remote_code
        self._loaded: Any = None

    def _load_error(self, role: str, error: Exception) -> ModelLoadError:
        return ModelLoadError(
            f"cannot load the {role} model: {error}", key=f"{role}.model", source=self.model_name
        )

    def _pretrained(self, role: str, *classes: Any) -> list[Any]:
        """``cls.from_pretrained(model)`` for each class, with one error naming the role."""
        try:
            with quiet_loading():
                return [
                    cls.from_pretrained(self.model_name, trust_remote_code=self.trust_remote_code)
                    for cls in classes
                ]
        except Exception as error:
            raise self._load_error(role, error) from error


class NLISupportScorer(HubModel):
    """CS as the entailment probability of an NLI or factual-consistency classifier
    (e.g. a DeBERTa-v3 NLI cross-encoder, HHEM with ``trust_remote_code``).

    Long evidence is cut into sentence chunks that fit ``max_length`` with the claim; the
    claim's support is the best chunk's (single-source max, as in MIRAGE Eq. 7).
    """

    def _load(self) -> Any:
        if self._loaded is None:
            from transformers import AutoModelForSequenceClassification, AutoTokenizer

            tokenizer, model = self._pretrained(
                "support", AutoTokenizer, AutoModelForSequenceClassification
            )
            model.eval().to(self.device)
            labels = model.config.id2label or {}
            positive = None if model.config.num_labels == 1 else entailment_index(labels)
            self._loaded = (tokenizer, model, positive)
        return self._loaded

    def _chunks(self, tokenizer: Any, passage: str, claim: str) -> list[str]:
        budget = self.max_length - len(tokenizer.tokenize(claim)) - 4
        chunks: list[str] = []
        current: list[str] = []
        used = 0
        for sentence in tx.evidence_sentences(passage):
            size = len(tokenizer.tokenize(sentence))
            if current and used + size > budget:
                chunks.append(" ".join(current))
                current, used = [], 0
            current.append(sentence)
            used += size
        chunks.append(" ".join(current))
        return chunks

    def _probabilities(self, premises: list[str], hypotheses: list[str]) -> np.ndarray:
        import torch

        tokenizer, model, positive = self._load()
        out = []
        for start in range(0, len(premises), self.batch_size):
            batch = tokenizer(
                premises[start : start + self.batch_size],
                hypotheses[start : start + self.batch_size],
                truncation="only_first",
                max_length=self.max_length,
                padding=True,
                return_tensors="pt",
            ).to(self.device)
            with torch.inference_mode():
                logits = model(**batch).logits.float()
            if positive is None:
                out.append(torch.sigmoid(logits[:, 0]).cpu().numpy())
            else:
                out.append(torch.softmax(logits, dim=-1)[:, positive].cpu().numpy())
        return np.concatenate(out) if out else np.zeros(0, dtype=np.float32)

    def support(self, claims: Sequence[Claim], evidence: Sequence[Evidence]) -> np.ndarray:
        if not claims:
            return np.zeros(0, dtype=np.float32)
        tokenizer, _, _ = self._load()
        premises: list[str] = []
        hypotheses: list[str] = []
        owner: list[int] = []
        for i, (claim, item) in enumerate(zip(claims, evidence, strict=True)):
            hypothesis = tx.decontextualized(claim.text, claim.context)
            for chunk in self._chunks(tokenizer, item.text or "", hypothesis):
                premises.append(chunk)
                hypotheses.append(hypothesis)
                owner.append(i)
        probabilities = self._probabilities(premises, hypotheses)
        scores = np.zeros(len(claims), dtype=np.float32)
        np.maximum.at(scores, np.asarray(owner), probabilities.astype(np.float32))
        return scores


class CrossEncoderRelevanceScorer(HubModel):
    """RS from a sentence-transformers CrossEncoder (e.g. ms-marco-MiniLM, bge-reranker),
    squashed to [0, 1] with a sigmoid."""

    def _load(self) -> Any:
        if self._loaded is None:
            import torch
            from sentence_transformers import CrossEncoder

            try:
                with quiet_loading():
                    self._loaded = CrossEncoder(
                        self.model_name,
                        device=self.device,
                        max_length=self.max_length,
                        trust_remote_code=self.trust_remote_code,
                        activation_fn=torch.nn.Sigmoid(),
                    )
            except Exception as error:
                raise self._load_error("relevance", error) from error
        return self._loaded

    def relevance(self, queries: Sequence[str], evidence: Sequence[Evidence]) -> np.ndarray:
        if not queries:
            return np.zeros(0, dtype=np.float32)
        pairs = [(q, e.text or "") for q, e in zip(queries, evidence, strict=True)]
        scores = self._load().predict(
            pairs, batch_size=self.batch_size, convert_to_numpy=True, show_progress_bar=False
        )
        scores = np.asarray(scores, dtype=np.float32)
        return scores if scores.ndim == 1 else scores[:, -1]
