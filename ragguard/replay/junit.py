"""A run as JUnit XML, the test report every CI system renders (``--junit FILE``).

One testcase per trace: a failure lists each unsupported claim with its reasons and an
answer off the question; a trace with claims that could not be scored (and none
unsupported) is skipped, never passed; a skipped line (bad input) is an error. One testcase
per release gate, and one for the rule under them (every line read, every claim scored).
Testcases stream to a temporary file as the run goes (memory stays bounded however many
traces), and the report replaces FILE at the end, once the counts its header holds
are known. Every text (trace ids, claims, reasons) is untrusted: escaped, and characters
XML 1.0 cannot hold are replaced.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO
from xml.sax.saxutils import escape, quoteattr

from ragguard.metrics import (
    GateResult,
    InputCheck,
    failure_summary,
    off_question,
    unsupported_claims,
)
from ragguard.schema import Evaluation

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _text(value: str) -> str:
    return escape(_NOT_XML.sub("\ufffd", value))


def _attr(value: str) -> str:
    return quoteattr(_NOT_XML.sub("\ufffd", value), {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})


@dataclass
class _Counts:
    tests: int = 0
    failures: int = 0
    errors: int = 0
    seconds: float = 0.0
    skipped: int = 0

    def attributes(self, name: str) -> str:
        return (
            f'name={_attr(name)} tests="{self.tests}" failures="{self.failures}" '
            f'errors="{self.errors}" skipped="{self.skipped}" time="{self.seconds:.3f}"'
        )


@dataclass
class JUnitReport:
    """Testcases for ``suite`` (the input files' names), collected until ``write``."""

    suite: str
    traces: _Counts = field(default_factory=_Counts)
    _cases: IO[str] = field(
        default_factory=lambda: tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
    )

    def add(self, evaluation: Evaluation, title: str | None = None) -> None:
        """One trace's testcase: a failure when a claim is unsupported or the answer is off
        the question. ``title`` (a foreign row's query, whose id is a hash) names it, the id
        kept in brackets."""
        seconds = evaluation.timing_ms.get("total", 0.0) / 1000
        self.traces.tests += 1
        self.traces.seconds += seconds
        name = evaluation.trace_id if title is None else f"{_short(title)} [{evaluation.trace_id}]"
        head = f'    <testcase classname="ragguard.traces" name={_attr(name)} '
        head += f'time="{seconds:.3f}"'
        message = failure_summary(evaluation)
        if message is None:
            self._cases.write(head + _unscored(evaluation, self.traces))
            return
        self.traces.failures += 1
        lines = unsupported_claims(evaluation)
        lines += [line for line in [off_question(evaluation)] if line is not None]
        self._cases.write(
            f'{head}>\n      <failure type="ragguard.verdict" message={_attr(message)}>'
            f"{_text(chr(10).join(lines))}</failure>\n    </testcase>\n"
        )

    def add_skipped(self, where: str, error: Exception) -> None:
        """A line that could not be evaluated (bad input, a limit): an error testcase."""
        self.traces.tests += 1
        self.traces.errors += 1
        self._cases.write(
            f'    <testcase classname="ragguard.traces" name={_attr(where)}>\n'
            f"      <error type={_attr(type(error).__name__)} message={_attr(str(error))}/>\n"
            "    </testcase>\n"
        )

    def write(
        self, out: IO[str], gates: Sequence[GateResult], read: InputCheck | None = None
    ) -> None:
        """The report, with one testcase per gate (and ``read``, the input check under
        them), to ``out`` (the CLI's file, replaced only when the whole report is written)."""
        checks = _Counts(
            tests=len(gates) + (read is not None),
            failures=sum(r.passed is False for r in gates),
            errors=sum(r.passed is None for r in gates) + bool(read and read.problems()),
        )
        total = _Counts(
            self.traces.tests + checks.tests,
            self.traces.failures + checks.failures,
            self.traces.errors + checks.errors,
            self.traces.seconds,
            self.traces.skipped,
        )
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        out.write(f"<testsuites {total.attributes('ragguard')}>\n")
        out.write(f"  <testsuite {self.traces.attributes(self.suite)}>\n")
        self._cases.seek(0)
        shutil.copyfileobj(self._cases, out)
        out.write("  </testsuite>\n")
        out.write(f"  <testsuite {checks.attributes('ragguard gates')}>\n")
        for result in gates:
            out.write(_gate_case(result))
        if read is not None:
            out.write(_read_case(read))
        out.write("  </testsuite>\n</testsuites>\n")

    def close(self) -> None:
        self._cases.close()


def _gate_case(result: GateResult) -> str:
    head = f'    <testcase classname="ragguard.gates" name={_attr(result.gate.condition)}'
    if result.passed:
        return head + "/>\n"
    kind = "failure" if result.passed is False else "error"
    return f"{head}>\n      <{kind} message={_attr(result.describe())}/>\n    </testcase>\n"


def _read_case(read: InputCheck) -> str:
    head = f'    <testcase classname="ragguard.gates" name={_attr(read.condition)}'
    if not read.problems():
        return head + "/>\n"
    return f"{head}>\n      <error message={_attr(read.describe())}/>\n    </testcase>\n"


def _unscored(evaluation: Evaluation, counts: _Counts) -> str:
    """The end of a testcase with no failure: skipped when a claim could not be scored (a
    pass would vouch for it), else closed."""
    lines = unsupported_claims(evaluation, unscored=True)
    if not lines:
        return "/>\n"
    counts.skipped += 1
    n = sum(not line.startswith("  ") for line in lines)
    message = f"{n} claim{'s' if n > 1 else ''} could not be scored"
    return (
        f">\n      <skipped message={_attr(message)}>{_text(chr(10).join(lines))}</skipped>\n"
        "    </testcase>\n"
    )


def _short(text: str, limit: int = 80) -> str:
    """A query as a one-line testcase name."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"
