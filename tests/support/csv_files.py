"""CSV exports the reader tests and the command tests share."""

from __future__ import annotations

from pathlib import Path


def stray_quote_csv(path: Path, rows: int) -> Path:
    """A DeepEval CSV of ``rows`` rows whose row 2 opens a quote that the last row's ``55"``
    (inches) closes (issue 57): on 2462735 every row between vanished into one cell."""
    with path.open("w", encoding="utf-8") as handle:
        handle.write("input,actual_output,retrieval_context,expected_output\n")
        handle.write('Where is it?,In Paris.,It is in Paris.,"In Paris\n')
        handle.writelines(
            f"Where is tower {i}?,In Paris.,Tower {i} is in Paris.,In Paris.\n"
            for i in range(3, rows + 1)
        )
        handle.write('How big is the TV?,It is 55 inches.,The TV is 55 inches.,55"\n')
    return path
