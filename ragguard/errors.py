"""Every error type ragguard raises. Errors about bad input name the offending field, so a
user can fix it, and every error pickles with its fields (the live worker's child process
sends them back to the parent as they are)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

if TYPE_CHECKING:  # schema imports this module
    from ragguard.schema import Evaluation


class RagguardError(Exception):
    """Base class for every error ragguard raises on purpose."""


class EvaluationLost(RagguardError):
    """A background evaluation given up at exit: still pending when ``exit_flush_timeout_s``
    ran out."""


class TraceValidationError(RagguardError, ValueError):
    """A trace (or a line of a traces file) is not valid input.

    ``field`` is a dotted path such as ``query`` or ``items[2].id``; ``trace_id`` and ``line``
    say where it came from when known.
    """

    def __init__(
        self,
        field: str,
        message: str,
        *,
        trace_id: str | None = None,
        line: int | None = None,
    ) -> None:
        self.field = field
        self.message = message
        self.trace_id = trace_id
        self.line = line
        where = []
        if line is not None:
            where.append(f"line {line}")
        if trace_id is not None:
            where.append(f"trace {trace_id!r}")
        prefix = f"{', '.join(where)}: " if where else ""
        super().__init__(f"{prefix}{field}: {message}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            _rebuild_validation_error,
            (self.field, self.message, self.trace_id, self.line),
        )

    @classmethod
    def from_pydantic(
        cls,
        error: ValidationError,
        *,
        trace_id: str | None = None,
        line: int | None = None,
        hints: dict[str, str] | None = None,
    ) -> TraceValidationError:
        """Turn pydantic's errors into one naming each field path (``items[2].text``): the
        first is ``field``, the others follow in the message. ``hints``: text to add after
        a field's message (the key that looks meant for a missing field)."""
        hints = hints or {}
        problems: dict[str, str] = {}
        for issue in error.errors():
            path = field_path(issue["loc"]) or "<trace>"
            message = issue["msg"].removeprefix("Value error, ")  # a validator's own message
            problems.setdefault(path, message + hints.get(path, ""))
        (field, message), *rest = problems.items()
        message += "".join(f"; {path}: {text}" for path, text in rest)
        return cls(field, message, trace_id=trace_id, line=line)


class ModelLoadError(RagguardError, RuntimeError):
    """A configured scoring model could not be loaded (bad hub id, missing path, no network,
    a corrupt file). ``key`` is the config setting that named it (``support.model``) and
    ``source`` the file or hub id, when known, so the message says what to fix."""

    def __init__(self, message: str, *, key: str | None = None, source: str | None = None) -> None:
        self.message = message
        self.key = key
        self.source = source
        where = " ".join(part for part in (key, f"({source!r})" if source else None) if part)
        super().__init__(f"{where}: {message}" if where else message)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_model_load_error, (self.message, self.key, self.source))


def field_path(loc: tuple[int | str, ...]) -> str:
    """``("items", 2, "id")`` -> ``items[2].id``."""
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else str(part)
    return path


class EvaluationError(RagguardError, RuntimeError):
    """Evaluating one trace failed for a reason other than its input (a model call raised);
    the other traces of its batch were evaluated without it."""

    def __init__(self, message: str, *, trace_id: str | None = None) -> None:
        self.message = message
        self.trace_id = trace_id
        super().__init__(f"trace {trace_id!r}: {message}" if trace_id is not None else message)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_evaluation_error, (self.message, self.trace_id))


class UnsupportedAnswerError(RagguardError):
    """Guard mode refused an answer: its support (CS) or retrieval relevance (RS) fell below
    the configured minimum. ``evaluation`` holds the full verdict; ``reasons`` says which."""

    def __init__(self, evaluation: Evaluation, reasons: list[str]) -> None:
        self.evaluation = evaluation
        self.reasons = reasons
        super().__init__(f"trace {evaluation.trace_id!r}: " + "; ".join(reasons))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.evaluation, self.reasons))


class MediaError(RagguardError, ValueError):
    """An image or video of an item cannot be read; ``field`` is ``image`` or ``video``."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.field, self.message))


def _rebuild_validation_error(
    field: str, message: str, trace_id: str | None, line: int | None
) -> TraceValidationError:
    return TraceValidationError(field, message, trace_id=trace_id, line=line)


def _rebuild_model_load_error(message: str, key: str | None, source: str | None) -> ModelLoadError:
    return ModelLoadError(message, key=key, source=source)


def _rebuild_evaluation_error(message: str, trace_id: str | None) -> EvaluationError:
    return EvaluationError(message, trace_id=trace_id)


class ConfigError(RagguardError, ValueError):
    """A config file that cannot be used: not found as a file, not valid TOML or JSON, or a
    setting that is unknown or out of range. The message names the file and the setting
    (and the nearest valid name for a misspelt one)."""


class ServeStartError(RagguardError, OSError):
    """``ragguard serve`` could not listen on one of its addresses. ``endpoint`` is which
    (``http``, ``grpc``, ``metrics``) and ``address`` the HOST:PORT; the message names the
    flag and the setting that change it."""

    def __init__(self, message: str, *, endpoint: str, address: str) -> None:
        self.message = message
        self.endpoint = endpoint
        self.address = address
        super().__init__(message)

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_serve_start_error, (self.message, self.endpoint, self.address))


def _rebuild_serve_start_error(message: str, endpoint: str, address: str) -> ServeStartError:
    return ServeStartError(message, endpoint=endpoint, address=address)


class GateError(RagguardError, ValueError):
    """A release gate (``--fail-over``, ``--fail-under``, ``--fail-if-worse``) that cannot be
    checked: an unknown metric (the message names the nearest one), a bound that is not a
    number, or a metric the run cannot compute. Never a pass: the run stops (exit 2)."""
