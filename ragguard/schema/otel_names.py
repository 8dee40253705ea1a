"""The OpenTelemetry names ragguard writes: GenAI semantic conventions, OpenInference's, and
its own. Kept here, not taken from the semconv packages: the ``gen_ai`` names exist only
in semconv's private incubating module, which the base install lacks. A test compares
these with the packages where they are installed."""

from __future__ import annotations

# GenAI semantic conventions (opentelemetry.semconv._incubating.attributes.gen_ai_attributes)
GEN_AI_EVALUATION_EXPLANATION = "gen_ai.evaluation.explanation"
GEN_AI_EVALUATION_NAME = "gen_ai.evaluation.name"
GEN_AI_EVALUATION_SCORE_LABEL = "gen_ai.evaluation.score.label"
GEN_AI_EVALUATION_SCORE_VALUE = "gen_ai.evaluation.score.value"
GEN_AI_OPERATION_NAME = "gen_ai.operation.name"
GEN_AI_RESPONSE_ID = "gen_ai.response.id"
GEN_AI_RETRIEVAL_DOCUMENTS = "gen_ai.retrieval.documents"
GEN_AI_RETRIEVAL_QUERY_TEXT = "gen_ai.retrieval.query.text"
EVALUATION_EVENT = "gen_ai.evaluation.result"
"""The event of one evaluation result."""

# OpenInference (openinference.semconv.trace)
OPENINFERENCE_SPAN_KIND = "openinference.span.kind"
INPUT_VALUE = "input.value"
OUTPUT_VALUE = "output.value"
ANNOTATIONS = "annotations"
"""Prefix of OpenInference feedback on a span: ``annotations.<i>.annotation.name``."""
EVALUATIONS = "evaluations"
"""The same feedback in eval terms: ``evaluations.<i>.evaluation.name``."""
RETRIEVAL_DOCUMENTS = "retrieval.documents"
"""Prefix of the flattened documents: ``retrieval.documents.<i>.document.id``."""
DOCUMENT_ID = "document.id"
DOCUMENT_METADATA = "document.metadata"
DOCUMENT_SCORE = "document.score"
DOCUMENT_CONTENT = "document.content"

# ragguard's own
RAGGUARD_PIPELINE = "ragguard.pipeline"
EVALUATION_SPAN = "ragguard.evaluation"
RETRIEVAL_SPAN = "retrieval"
CALIBRATION_PREFIX = "ragguard.calibration."
"""Attributes of the support calibration in force (source, fitted, threshold, band,
samples, agreement, drift)."""


def document_attribute(index: int, name: str) -> str:
    """``retrieval.documents.<index>.<name>``, with ``name`` one of the ``DOCUMENT_*``."""
    return f"{RETRIEVAL_DOCUMENTS}.{index}.{name}"
