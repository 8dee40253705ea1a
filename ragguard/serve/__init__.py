"""``ragguard serve``: an OTLP receiver that evaluates the RAG traces of any instrumented
application (OpenInference, OpenLLMetry, OTel GenAI conventions), in any language.

Spans arrive over OTLP/HTTP or OTLP/gRPC (``otlp``, ``receiving``), each dialect reads
what its spans say (``dialects``), spans are buffered per trace id (``buffer``) and a trace's
spans are joined into one ragguard ``Trace`` (``join``), which the live Monitor evaluates in
the background (``evaluating``). Verdicts go to the configured exporters, plus Phoenix and
Langfuse (``outgoing``); ``health`` answers ``/readyz`` and ``/metrics``; ``app`` runs them.
"""

from __future__ import annotations

import typing as _typing

from ragguard._exports import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from ragguard.serve.app import ServeApp

__all__ = ["ServeApp"]

__getattr__, __dir__ = _lazy_exports(__name__, __file__, __all__)
