"""Our OpenTelemetry names (``exporters.otel_names``) against the semantic-convention
packages, where they are installed."""

from __future__ import annotations

import pytest

from ragguard.schema import otel_names


def test_gen_ai_names_match_semconv() -> None:
    semconv = pytest.importorskip("opentelemetry.semconv._incubating.attributes.gen_ai_attributes")
    ours = {k: v for k, v in vars(otel_names).items() if k.startswith("GEN_AI_")}
    assert len(ours) == 8
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
