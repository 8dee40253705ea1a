"""RAG-Check's RS and CS method: a vision-language model asked about the images.

RAG-Check (Mortaheb et al., 2025, "RAG-Check: Evaluating Multimodal Retrieval Augmented
Generation Performance") scores relevance (RS) and correctness (CS) by asking a VLM whether
an image is relevant to the query and whether a response span is correct given the
images. The model (any ``AutoModelForImageTextToText`` checkpoint with a processor: LLaVA,
Qwen2-VL, PaliGemma, ...) reads ragguard's wording of those two questions, with the images
in place; the score is the probability of the positive answer word at the next token
("relevant" / "correct"), normalized against the negative one ("irrelevant" /
"incorrect"). RAG-Check fine-tunes a scalar head on top of such a model; an off-the-shelf
VLM's answer probability is the untuned form of the same question (the paper's
LLaVA-/VILA-labeler baselines).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ragguard.errors import ModelLoadError
from ragguard.scoring.hub.transformers_backends import HubModel
from ragguard.scoring.interface.evidence import Claim
from ragguard.scoring.lexical import text as tx

if TYPE_CHECKING:
    from ragguard.media import Frame

RS_PROMPT = (
    "Here is an image: {image}. Would it help to answer the request below? Reply with one "
    "word, 'relevant' or 'irrelevant'. Request: {statement}."
)
"""RS: the user query is the request (RAG-Check's RS question, in ragguard's words)."""
CS_PROMPT = (
    "The {k} images above are the evidence. Judging only by what they show, is the statement "
    "below right? Reply with one word, 'correct' or 'incorrect'. Statement: {statement}"
)
"""CS: the k images come before it (RAG-Check's CS question, in ragguard's words)."""
RS_ANSWERS = ("relevant", "irrelevant")
CS_ANSWERS = ("correct", "incorrect")

_IMAGE = "\x00image\x00"  # where an image goes in a prompt, before the chat template runs


class VLMScorer(HubModel):
    """RS and CS from a vision-language model's next-token answer probabilities."""

    def _load(self) -> Any:
        if self._loaded is None:
            from transformers import AutoModelForImageTextToText, AutoProcessor

            processor, model = self._pretrained("image", AutoProcessor, AutoModelForImageTextToText)
            processor.tokenizer.padding_side = "left"  # the answer is read at the last position
            model.eval().to(self.device)
            answers = {
                words: _answer_tokens(processor.tokenizer, words)
                for words in (RS_ANSWERS, CS_ANSWERS)
            }
            self._loaded = (processor, model, answers)
        return self._loaded

    def relevance(self, queries: Sequence[str], frames: Sequence[Frame]) -> np.ndarray:
        prompts = [
            RS_PROMPT.format(image=_IMAGE, statement=q.strip().rstrip(".?!")) for q in queries
        ]
        return self._answer_probability(prompts, [[f] for f in frames], RS_ANSWERS)

    def support(self, claims: Sequence[Claim], images: Sequence[Sequence[Frame]]) -> np.ndarray:
        prompts = [
            _IMAGE * len(group)
            + CS_PROMPT.format(k=len(group), statement=tx.decontextualized(c.text, c.context))
            for c, group in zip(claims, images, strict=True)
        ]
        return self._answer_probability(prompts, images, CS_ANSWERS)

    def render(self, prompt: str) -> str:
        """The model's input text for a prompt: its chat template when it has one (images
        as image entries where ``_IMAGE`` stood), else image tokens inline."""
        processor = self._load()[0]
        parts = prompt.split(_IMAGE)
        if getattr(processor, "chat_template", None) is None:
            token = getattr(processor, "image_token", "<image>")
            return token.join(parts)
        content: list[dict[str, str]] = []
        for n, part in enumerate(parts):
            if n:
                content.append({"type": "image"})
            if part:
                content.append({"type": "text", "text": part})
        return processor.apply_chat_template(
            [{"role": "user", "content": content}], add_generation_prompt=True, tokenize=False
        )

    def _answer_probability(
        self,
        prompts: Sequence[str],
        images: Sequence[Sequence[Frame]],
        words: tuple[str, str],
    ) -> np.ndarray:
        import torch

        if not prompts:
            return np.zeros(0, dtype=np.float32)
        processor, model, answers = self._load()
        positive, negative = answers[words]
        out = []
        for start in range(0, len(prompts), self.batch_size):
            end = start + self.batch_size
            inputs = processor(
                text=[self.render(p) for p in prompts[start:end]],
                images=[[f.image for f in group] for group in images[start:end]],
                padding=True,
                return_tensors="pt",
            ).to(self.device)
            with torch.inference_mode():
                logits = model(**inputs).logits[:, -1, :].float()
            yes = torch.logsumexp(logits[:, positive], dim=-1)
            no = torch.logsumexp(logits[:, negative], dim=-1)
            out.append(torch.sigmoid(yes - no).cpu().numpy())
        return np.concatenate(out).astype(np.float32)


def _answer_tokens(tokenizer: Any, words: tuple[str, str]) -> tuple[list[int], list[int]]:
    """First-token ids of each answer word, in the casings and spacings a model may use."""
    ids = []
    for word in words:
        variants = (word, word.capitalize(), " " + word, " " + word.capitalize())
        ids.append(sorted({tokenizer.encode(v, add_special_tokens=False)[0] for v in variants}))
    if set(ids[0]) & set(ids[1]):
        raise ModelLoadError(
            f"the tokenizer cannot tell {words[0]!r} from {words[1]!r} by their first token"
        )
    return ids[0], ids[1]
