"""Our OpenTelemetry names (``schema.otel_names``) against the semantic-convention
packages, where they are installed."""

from __future__ import annotations

import pytest

from ragguard.schema import otel_names


def test_gen_ai_names_match_semconv() -> None:
    semconv = pytest.importorskip("opentelemetry.semconv._incubating.attributes.gen_ai_attributes")
    ours = {k: v for k, v in vars(otel_names).items() if k.startswith("GEN_AI_")}
    assert len(ours) == 19
    for constant, name in ours.items():
        assert getattr(semconv, constant) == name, constant


def test_openinference_names_match_its_semconv() -> None:
    trace = pytest.importorskip("openinference.semconv.trace")
    span, document = trace.SpanAttributes, trace.DocumentAttributes
    assert otel_names.OPENINFERENCE_SPAN_KIND == span.OPENINFERENCE_SPAN_KIND
    assert otel_names.INPUT_VALUE == span.INPUT_VALUE
    assert otel_names.OUTPUT_VALUE == span.OUTPUT_VALUE
    assert otel_names.RETRIEVAL_DOCUMENTS == span.RETRIEVAL_DOCUMENTS
    for constant in ("DOCUMENT_ID", "DOCUMENT_METADATA", "DOCUMENT_SCORE", "DOCUMENT_CONTENT"):
        assert getattr(otel_names, constant) == getattr(document, constant), constant
    assert otel_names.ANNOTATIONS == span.ANNOTATIONS
    assert otel_names.EVALUATIONS == span.EVALUATIONS
    for constant in (
        "LLM_INPUT_MESSAGES",
        "LLM_OUTPUT_MESSAGES",
        "LLM_PROMPT_TEMPLATE_VARIABLES",
    ):
        assert getattr(otel_names, constant) == getattr(span, constant), constant
    reranker, message = trace.RerankerAttributes, trace.MessageAttributes
    assert otel_names.RERANKER_OUTPUT_DOCUMENTS == reranker.RERANKER_OUTPUT_DOCUMENTS
    assert otel_names.RERANKER_QUERY == reranker.RERANKER_QUERY
    assert otel_names.MESSAGE_ROLE == message.MESSAGE_ROLE
    assert otel_names.MESSAGE_CONTENT == message.MESSAGE_CONTENT
    assert otel_names.MESSAGE_CONTENTS == message.MESSAGE_CONTENTS
    assert otel_names.MESSAGE_CONTENT_TEXT == trace.MessageContentAttributes.MESSAGE_CONTENT_TEXT
    # the feedback fields ragguard writes under those prefixes are OpenInference's own
    for word, attributes in (
        ("annotation", trace.AnnotationAttributes),
        ("evaluation", trace.EvaluationAttributes),
    ):
        for field in ("name", "score", "label", "explanation", "annotator_kind", "identifier"):
            assert getattr(attributes, f"{word}_{field}".upper()) == f"{word}.{field}"


def test_a_document_attribute_is_flattened_by_index() -> None:
    name = otel_names.document_attribute(2, otel_names.DOCUMENT_ID)
    assert name == "retrieval.documents.2.document.id"


READERS = [
    "serve/dialects/genai.py",
    "serve/dialects/openinference.py",
    "serve/dialects/openllmetry.py",
    "serve/dialects/values.py",
    "judge/client.py",
    "exporters/otel.py",
]


@pytest.mark.parametrize("module", READERS)
def test_readers_and_writers_spell_no_attribute_name_themselves(module: str) -> None:
    """Every name the module reads or writes comes from otel_names, none as a literal."""
    from pathlib import Path

    import ragguard

    source = (Path(ragguard.__file__).parent / module).read_text(encoding="utf-8")
    spelt = {v for k, v in vars(otel_names).items() if k.isupper() and "." in v}
    assert [name for name in spelt if f'"{name}"' in source] == []


def _ragguard_names_outside_otel_names() -> list[str]:
    """String literals (and f-string parts) in ragguard/ that spell a ``ragguard.*`` OTel
    name: ``ragguard.`` followed by anything but a module of the package."""
    import ast
    import pkgutil
    from pathlib import Path

    import ragguard

    root = Path(ragguard.__file__).parent
    modules = {m.name for m in pkgutil.iter_modules([str(root)])}
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.name == "otel_names.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.JoinedStr) and node.values:  # f"ragguard.{name}"
                first = node.values[0]
                text = first.value if isinstance(first, ast.Constant) else ""
                if isinstance(text, str) and text.startswith("ragguard.") and " " not in text:
                    found.append(f"{path.relative_to(root)}:{node.lineno}: f{text!r}...")
                continue
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                continue
            text = node.value
            if not text.startswith("ragguard.") or " " in text:
                continue
            head = text.removeprefix("ragguard.").split(".")[0]
            if head and head not in modules:
                found.append(f"{path.relative_to(root)}:{node.lineno}: {text!r}")
    return found


def test_every_ragguard_attribute_name_is_spelt_in_otel_names() -> None:
    assert _ragguard_names_outside_otel_names() == []
