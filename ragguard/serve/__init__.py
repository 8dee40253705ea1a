"""``ragguard serve``: an OTLP receiver that evaluates the RAG traces of any instrumented
application (OpenInference, OpenLLMetry, OTel GenAI conventions), in any language.

Spans arrive over OTLP/HTTP or OTLP/gRPC (``otlp``), each dialect reads what its spans say
(``dialects``), spans are buffered per trace id (``buffer``) and put together into one
ragguard ``Trace`` (``assembly``), which the live engine evaluates in the background
(``app``). Verdicts go to the configured exporters, plus Phoenix and Langfuse
(``phoenix``, ``langfuse``).
"""
