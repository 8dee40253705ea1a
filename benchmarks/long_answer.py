"""Support time of one long answer full of numbers against one of the same length without
digits: the checks' per-span work must stay near linear in the span's length.

    python benchmarks/long_answer.py [--chars 12500 25000 50000] [--repeats 3] [--one-clause]

The answer is one run-on sentence (no full stop until the end, so it is one span) of
clauses such as "revenue of 117 million and profit of 18 percent in 1917, while staff grew
to 2119 people"; its twin writes the same clauses with words in place of the numbers. The
evidence is one passage that states a few of the answer's values and others beside them,
so every rule of the number check runs (stated values, rivals, clauses). Caches are
cleared before each evaluation. Target (issue 38): 50,000 characters with numbers in at
most 4 times the time without digits.

``--one-clause``: the answer of issue 45 instead, one clause repeated with no punctuation
("the tower was completed in 1889 and ..." against "... in many and ..."), against the Eiffel
Tower passage: every number sits in the same clause, so a rule that reads the clause once per
number is quadratic here and not in the text above. Same target.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from ragguard import Guard

CLAUSE = (
    "the company reported revenue of {a} million and profit of {b} percent in {y}, "
    "while staff grew to {c} people"
)
WORDS = {"a": "many", "b": "some", "y": "that year", "c": "several"}
EVIDENCE = (
    "The company reported revenue of 103 million and profit of 4 percent in 1903. "
    "In 1950 staff grew to 4000 people, and revenue reached 150 million. "
    "Profit fell to 12 percent in 1962, while revenue was 162 million."
)
TOWER = (
    "The Eiffel Tower is a wrought-iron lattice tower in Paris. It is 330 metres tall and "
    "was completed in 1889."
)


def one_clause(chars: int, digits: bool) -> str:
    """Issue 45's answer: ``("the tower was completed in 1889 and " * n)[: chars - 1] + "."``."""
    part = f"the tower was completed in {'1889' if digits else 'many'} and "
    return (part * (chars // len(part) + 1))[: chars - 1] + "."


def answer(chars: int, digits: bool) -> str:
    """One span of ``chars`` characters, with numbers or with words in their place."""
    parts: list[str] = []
    size, i = 0, 0
    while size < chars:
        values = {"a": 100 + i, "b": i % 90 + 1, "y": 1900 + i % 120, "c": 2000 + 7 * i}
        part = CLAUSE.format(**(values if digits else WORDS))
        parts.append(part)
        size += len(part) + 2
        i += 1
    return ", ".join(parts)[: chars - 1].rstrip(" ,") + "."


def seconds(guard: Guard, text: str, repeats: int, evidence: str = EVIDENCE) -> float:
    """Median wall time of evaluating ``text`` as the answer, cold caches each time."""
    times = []
    for n in range(repeats):
        guard.evaluator.clear_caches()
        trace = {
            "trace_id": f"long-{n}",
            "query": "How did the company do?",
            "items": [{"id": "report", "text": evidence}],
            "response": text,
        }
        started = time.perf_counter()
        evaluation = guard.evaluate(trace)
        times.append(time.perf_counter() - started)
        assert len(evaluation.spans) == 1, "the answer must stay one span"
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chars", type=int, nargs="+", default=[12_500, 25_000, 50_000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--one-clause", action="store_true", help="issue 45's answer")
    args = parser.parse_args()
    guard = Guard({"limits": {"max_response_chars": max(args.chars)}})
    guard.evaluate(
        {"trace_id": "warm", "query": "q", "items": [{"id": "a", "text": "x"}], "response": "A."}
    )
    print(f"machine: {os.cpu_count()} cores; median of {args.repeats}, cold caches")
    make, evidence = (one_clause, TOWER) if args.one_clause else (answer, EVIDENCE)
    for chars in args.chars:
        plain = seconds(guard, make(chars, False), args.repeats, evidence)
        numbers = seconds(guard, make(chars, True), args.repeats, evidence)
        print(
            f"{chars:>7} chars: without digits {plain:6.2f} s, with numbers {numbers:6.2f} s, "
            f"ratio {numbers / plain:5.2f}"
        )


if __name__ == "__main__":
    main()
