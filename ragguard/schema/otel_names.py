"""The OpenTelemetry names ragguard writes and reads: GenAI semantic conventions,
OpenInference's, OpenLLMetry's, and its own. The exporter writes with them, and ``serve``'s
dialects and the judge client read and write with them: no name is spelt twice. Kept here,
not taken from the semconv packages: the ``gen_ai`` names exist only in semconv's private
incubating module, which the base install lacks. A test compares these with the packages
where they are installed."""

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
GEN_AI_INPUT_MESSAGES = "gen_ai.input.messages"
GEN_AI_OUTPUT_MESSAGES = "gen_ai.output.messages"
GEN_AI_PROMPT = "gen_ai.prompt"
"""Also the prefix of OpenLLMetry's flattened prompt: ``gen_ai.prompt.<i>.content``."""
GEN_AI_COMPLETION = "gen_ai.completion"
GEN_AI_USAGE_INPUT_TOKENS = "gen_ai.usage.input_tokens"
GEN_AI_USAGE_OUTPUT_TOKENS = "gen_ai.usage.output_tokens"
GEN_AI_PROVIDER_NAME = "gen_ai.provider.name"
GEN_AI_SYSTEM = "gen_ai.system"
GEN_AI_REQUEST_MODEL = "gen_ai.request.model"
GEN_AI_REQUEST_MAX_TOKENS = "gen_ai.request.max_tokens"
GEN_AI_REQUEST_TEMPERATURE = "gen_ai.request.temperature"
SERVER_ADDRESS = "server.address"
SERVER_PORT = "server.port"
ERROR_TYPE = "error.type"
EVALUATION_EVENT = "gen_ai.evaluation.result"
"""The event of one evaluation result."""
SYSTEM_MESSAGE_EVENT = "gen_ai.system.message"
USER_MESSAGE_EVENT = "gen_ai.user.message"
ASSISTANT_MESSAGE_EVENT = "gen_ai.assistant.message"
CHOICE_EVENT = "gen_ai.choice"
"""The message events of the older GenAI conventions, before the ``*_messages`` attributes."""

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
RERANKER_OUTPUT_DOCUMENTS = "reranker.output_documents"
RERANKER_QUERY = "reranker.query"
LLM_INPUT_MESSAGES = "llm.input_messages"
LLM_OUTPUT_MESSAGES = "llm.output_messages"
LLM_PROMPT_TEMPLATE_VARIABLES = "llm.prompt_template.variables"
MESSAGE_ROLE = "message.role"
MESSAGE_CONTENT = "message.content"
MESSAGE_CONTENTS = "message.contents"
MESSAGE_CONTENT_TEXT = "message_content.text"

# OpenLLMetry (Traceloop)
LLM_REQUEST_TYPE = "llm.request.type"
TRACELOOP_SPAN_KIND = "traceloop.span.kind"
TRACELOOP_ENTITY_INPUT = "traceloop.entity.input"
TRACELOOP_ENTITY_OUTPUT = "traceloop.entity.output"

# ragguard's own
RAGGUARD_PIPELINE = "ragguard.pipeline"
EVALUATION_SPAN = "ragguard.evaluation"
RETRIEVAL_SPAN = "retrieval"
JUDGE_SCORES = "ragguard.judge.scores"
"""P(supported) from the judge's score question, one per span it scored, in span order."""
JUDGE_SCORED_SPANS = "ragguard.judge.scored_spans"
"""The indices of those spans in the evaluation (``spans[i]``), beside ``JUDGE_SCORES``."""
CALIBRATION_PREFIX = "ragguard.calibration."
"""Attributes of the support calibration in force (source, fitted, threshold, band,
samples, agreement, drift)."""

# ragguard's evaluation results: event names, OpenInference feedback, Phoenix annotations
# and Langfuse scores all carry the same names
RELEVANCE_RESULT = "ragguard.relevance"
RELEVANT_AT_K_RESULT = "ragguard.relevant_at_k"
SUPPORT_RATE_RESULT = "ragguard.support_rate"
HALLUCINATION_RESULT = "ragguard.hallucination"
ANSWER_RELEVANCE_RESULT = "ragguard.answer_relevance"
ABSTENTION_RESULT = "ragguard.abstention"
CITATION_PRECISION_RESULT = "ragguard.citation_precision"
CITATION_RECALL_RESULT = "ragguard.citation_recall"
SPAN_SUPPORT_RESULT = "ragguard.span_support"
UNSUPPORTED_SPANS_RESULT = "ragguard.unsupported_spans"
STATUS_RESULT = "ragguard.status"
"""Whether ``ragguard serve`` found anything to evaluate in a trace."""
DOCUMENT_RELEVANCE_RESULT = "ragguard.document_relevance"
DOCUMENT_VERDICT_KEYS = {
    "relevance": "ragguard.relevance",
    "relevant": "ragguard.relevant",
    "modality": "ragguard.modality",
    "uri": "ragguard.uri",
    "error": "ragguard.error",
}
"""A retrieved document's verdict field -> its key in OpenInference's document metadata."""


def document_attribute(index: int, name: str) -> str:
    """``retrieval.documents.<index>.<name>``, with ``name`` one of the ``DOCUMENT_*``."""
    return f"{RETRIEVAL_DOCUMENTS}.{index}.{name}"
