"""Readers every dialect shares: indexed attributes (``prefix.N.key``), JSON-in-a-string
values, chat messages in their three shapes, and the question and context names that
prompt templates use."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ragguard.schema import MESSAGE_CONTENT, MESSAGE_CONTENT_TEXT, MESSAGE_CONTENTS, MESSAGE_ROLE
from ragguard.serve.model import Document
from ragguard.serve.numerals import ascii_int

REDACTED = "__REDACTED__"
"""OpenInference's stand-in for a hidden value (``OPENINFERENCE_HIDE_*``)."""

QUESTION_KEYS = ("question", "query", "query_str", "input", "user_input", "user_query", "q")
"""Prompt-variable and chain-input names that hold the user's question."""
CONTEXT_HINTS = ("context", "document", "docs", "passage", "source", "summaries", "evidence")
"""A prompt variable whose name contains one of these holds retrieved text."""
ANSWER_KEYS = ("answer", "output", "result", "response", "text", "content", "output_text")

Message = tuple[str, str]
"""(role, text)."""


def loads(value: Any) -> Any:
    """``value`` parsed as JSON when it is a string holding an object or a list; the string
    itself when it is not JSON, nests too deep to parse (``RecursionError``) or holds a number
    past Python's digit limit (``ValueError``): span attributes are untrusted."""
    if isinstance(value, str) and value[:1] in ("{", "["):
        try:
            return json.loads(value)
        except (ValueError, RecursionError):  # JSONDecodeError is a ValueError
            return value
    return value


def indexed(attributes: Mapping[str, Any], prefix: str) -> list[dict[str, Any]]:
    """``prefix.0.a``, ``prefix.0.b``, ``prefix.1.a`` -> ``[{"a", "b"}, {"a"}]`` in index
    order (flattened lists, as OpenInference and OpenLLMetry write them)."""
    found: dict[int, dict[str, Any]] = {}
    start = prefix + "."
    for key, value in attributes.items():
        if not key.startswith(start):
            continue
        index, _, rest = key[len(start) :].partition(".")
        number = ascii_int(index)
        if number is not None and rest:
            found.setdefault(number, {})[rest] = value
    return [found[index] for index in sorted(found)]


def text(value: Any) -> str | None:
    """A non-blank string, or None (a redaction marker is None too)."""
    if isinstance(value, str) and value.strip() and value != REDACTED:
        return value
    return None


def from_mapping(value: Any, keys: tuple[str, ...]) -> str | None:
    """The first of ``keys`` holding text in a mapping, or the value itself when it is text."""
    value = loads(value)
    if isinstance(value, Mapping):
        for key in keys:
            found = text(value.get(key))
            if found is not None:
                return found
        return None
    return text(value)


def parts_text(content: Any) -> str | None:
    """Message content: a string, or a list of parts (``{"type": "text", "content"|"text"}``)."""
    content = loads(content)
    if isinstance(content, list):
        pieces = [
            str(part.get("content") or part.get("text") or "")
            for part in content
            if isinstance(part, Mapping) and part.get("type", "text") == "text"
        ]
        return text("".join(pieces))
    return text(content)


def json_messages(value: Any) -> list[Message]:
    """``gen_ai.input.messages`` / ``gen_ai.output.messages``: a JSON list of
    ``{"role", "parts": [...]}`` (or ``{"role", "content"}``)."""
    value = loads(value)
    if not isinstance(value, list):
        return []
    messages = []
    for message in value:
        if not isinstance(message, Mapping):
            continue
        body = message.get("parts", message.get("content"))
        found = parts_text(body)
        if found is not None:
            messages.append((str(message.get("role") or "user"), found))
    return messages


def flat_messages(attributes: Mapping[str, Any], prefix: str) -> list[Message]:
    """Flattened messages: ``gen_ai.prompt.N.{role,content}`` or OpenInference's
    ``llm.input_messages.N.message.{role,content,contents.M.message_content.text}``."""
    messages = []
    for entry in indexed(attributes, prefix):
        role = entry.get("role", entry.get(MESSAGE_ROLE, "user"))
        content = entry.get("content", entry.get(MESSAGE_CONTENT))
        found = parts_text(content)
        if found is None:
            parts = [
                str(value)
                for key, value in sorted(entry.items())
                if key.startswith(MESSAGE_CONTENTS + ".")
                and key.endswith("." + MESSAGE_CONTENT_TEXT)
            ]
            found = text("".join(parts))
        if found is not None:
            messages.append((str(role), found))
    return messages


def last_answer(messages: list[Message]) -> str | None:
    answers = [body for role, body in messages if role in ("assistant", "ai", "model")]
    return answers[-1] if answers else (messages[-1][1] if messages else None)


def question_of(messages: list[Message]) -> str | None:
    users = [body for role, body in messages if role in ("user", "human")]
    return users[-1] if users else None


def context_of(messages: list[Message]) -> list[str]:
    """The input messages that may carry retrieved text (system and user ones)."""
    return [body for role, body in messages if role in ("system", "user", "human", "developer")]


def prompt_variables(value: Any) -> tuple[str | None, list[str]]:
    """(question, context texts) from prompt-template variables (a mapping or its JSON)."""
    variables = loads(value)
    if not isinstance(variables, Mapping):
        return None, []
    question = from_mapping(variables, QUESTION_KEYS)
    context = []
    for key, entry in variables.items():
        if any(hint in str(key).lower() for hint in CONTEXT_HINTS):
            entry = loads(entry)
            values = entry if isinstance(entry, list) else [entry]
            for value in values:
                found = document_text(value)
                if found is not None:
                    context.append(found)
    return question, context


def document_text(value: Any) -> str | None:
    if isinstance(value, Mapping):
        return from_mapping(value, ("page_content", "content", "text", "document"))
    return text(value) if isinstance(value, str) else None


def score(value: Any) -> float | None:
    try:
        return None if value is None or isinstance(value, bool) else float(value)
    except (TypeError, ValueError):
        return None


def json_documents(value: Any) -> list[Document]:
    """A JSON list of documents: LangChain ``{"page_content", "metadata"}``, GenAI
    ``{"id", "score", "content"}``, or bare strings."""
    value = loads(value)
    if isinstance(value, Mapping):
        value = value.get("documents")
    if not isinstance(value, list):
        return []
    documents = []
    for entry in value:
        if isinstance(entry, Mapping):
            metadata = entry.get("metadata")
            metadata = loads(metadata)
            identifier = entry.get("id")
            if identifier is None and isinstance(metadata, Mapping):
                identifier = metadata.get("id")
            documents.append(
                Document(
                    id=str(identifier) if identifier not in (None, "") else None,
                    text=document_text(entry),
                    score=score(entry.get("score")),
                    metadata=dict(metadata) if isinstance(metadata, Mapping) else {},
                )
            )
        elif isinstance(entry, str):
            documents.append(Document(id=None, text=text(entry)))
    return documents


def redacted(*values: Any) -> bool:
    return any(value == REDACTED for value in values)
