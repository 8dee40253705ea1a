"""The judge's prompts, written for ragguard after MEMERAG's best-performing design.

MEMERAG (Cruz Blandón et al., 2025, "MEMERAG: A Multilingual End-to-End Meta-Evaluation Benchmark
for Retrieval Augmented Generation", Table 5) compares zero-shot, chain-of-thought (COT),
annotation-guideline (AG) and AG+COT prompts for LLM judges of faithfulness; AG+COT agrees
best with expert annotators. So each prompt here gives the judge the rules a human annotator
would follow, asks for a short reasoning, and then for a machine-readable verdict (a JSON
object whose reasoning field comes before the verdict, so the reasoning is written first).
The texts are ragguard's own; the paper's prompt files are not used.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

SUPPORT_GUIDELINES = """\
You check whether a sentence from an AI assistant's answer is backed by the retrieved \
passages the assistant was given. Follow these rules:
1. Use only the passages. Whether the sentence is true in the real world does not matter: \
a true statement that the passages do not contain is not supported.
2. Every part of the sentence must be backed. If one name, number, date, place or \
qualifier is missing from the passages or differs from them, the sentence is not supported.
3. Watch for shifts in meaning: "some" turned into "all", "may" into "will", a rumour \
reported as a fact, a cause that the passages only mention as a coincidence. Such a \
sentence is not supported.
4. A conclusion that follows directly from the passages, with a simple step any reader \
would take (a sum, a date difference, a synonym, a paraphrase), is supported. A \
conclusion that needs outside knowledge or a guess is not.
5. A sentence that the passages contradict is not supported.
6. Ignore citation markers such as [1] or [doc2]; judge the content only.
7. The text before the sentence is only there to resolve words like "it" or "she"; do not \
judge that text."""

RELEVANCE_GUIDELINES = """\
You check whether a retrieved passage is useful for answering a user's question. Follow \
these rules:
1. The passage is relevant when it answers the question, or part of it, or gives facts an \
answer needs (a definition, a date, a figure, the entity the question is about).
2. Sharing words or a topic with the question is not enough: a passage about the same \
subject that does not help to answer this question is not relevant.
3. Judge only what the passage says, not what you know about the subject.
4. Length and style do not matter; a short passage with the needed fact is relevant."""

OUTPUT_RULES = """\
Think it through briefly, in at most three sentences, then answer with one JSON object and \
nothing else, in this form:
{{"reasoning": "<your short reasoning>", "verdict": "{yes}" or "{no}"}}"""

SUPPORT_VERDICTS = ("supported", "not_supported")
RELEVANCE_VERDICTS = ("relevant", "not_relevant")


def _system(guidelines: str, verdicts: tuple[str, str]) -> str:
    return guidelines + "\n\n" + OUTPUT_RULES.format(yes=verdicts[0], no=verdicts[1])


def support_messages(
    claim: str, passages: Sequence[str], context: str = ""
) -> list[dict[str, str]]:
    """Chat messages asking whether ``claim`` is backed by ``passages`` (``context``: the
    answer text just before the claim, to resolve references)."""
    shown = "\n\n".join(f"Passage {n}:\n{text}" for n, text in enumerate(passages, start=1))
    before = f"Text before the sentence: {context.strip()}\n\n" if context.strip() else ""
    return [
        {"role": "system", "content": _system(SUPPORT_GUIDELINES, SUPPORT_VERDICTS)},
        {"role": "user", "content": f"{shown}\n\n{before}Sentence to check: {claim.strip()}"},
    ]


def relevance_messages(query: str, passage: str) -> list[dict[str, str]]:
    """Chat messages asking whether ``passage`` helps to answer ``query``."""
    return [
        {"role": "system", "content": _system(RELEVANCE_GUIDELINES, RELEVANCE_VERDICTS)},
        {"role": "user", "content": f"Question: {query.strip()}\n\nPassage:\n{passage}"},
    ]


def verdict_schema(verdicts: tuple[str, str], max_tokens: int) -> dict[str, Any]:
    """The JSON schema of a reply (``response_format = "json_schema"``): a short reasoning
    first, then one of the two verdicts. The reasoning is capped at about half the reply's
    token limit (4 characters a token), so the verdict always fits after it."""
    return {
        "type": "object",
        "properties": {
            "reasoning": {"type": "string", "maxLength": min(400, 2 * max_tokens)},
            "verdict": {"type": "string", "enum": list(verdicts)},
        },
        "required": ["reasoning", "verdict"],
        "additionalProperties": False,
    }
