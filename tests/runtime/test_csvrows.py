"""The CSV and JSONL decoding under ``--format``: each bad row reported with its line and
the rest read (issue 45's medium and low items; each case failed on 394702e)."""

from __future__ import annotations

import json

from ragguard.errors import TraceValidationError
from ragguard.runtime.foreign import read_foreign
from ragguard.runtime.jsonl import read_traces
from tests.support.csv_files import stray_quote_csv

HEADER = "input,actual_output,retrieval_context\n"


def outcomes(path, form="deepeval", **limits):
    return [
        (n, e.message if isinstance(e, TraceValidationError) else e.query)
        for n, e in read_foreign(path, form, **limits)
    ]


def test_a_bom_csv_from_excel_reads_its_first_column(tmp_path):
    """Excel's "CSV UTF-8" starts with a BOM: every row was "missing input"."""
    path = tmp_path / "cases.csv"
    path.write_bytes(("\ufeff" + HEADER + "Where?,In Paris.,Paris.\n").encode())
    assert outcomes(path) == [(2, "Where?")]


def test_a_latin1_byte_skips_its_row_like_a_jsonl_line(tmp_path):
    path = tmp_path / "cases.csv"
    path.write_bytes(
        (HEADER + "One?,In Paris.,Paris.\n").encode()
        + "Caf\xe9?,In Paris.,Paris.\n".encode("latin-1")
        + b"Three?,In Paris.,Paris.\n"
    )
    (first, bad, third) = outcomes(path)
    assert first == (2, "One?") and third == (4, "Three?")
    assert bad[0] == 3 and "not valid UTF-8 on line 3" in bad[1]


def test_a_cell_of_30000_nested_brackets_is_a_row_error(tmp_path):
    path = tmp_path / "cases.csv"
    path.write_text(HEADER + 'Where?,In Paris.,"' + "[" * 30_000 + "]" * 30_000 + '"\nNext?,x,y\n')
    assert outcomes(path) == [(2, "a list nested too deeply"), (3, "Next?")]


def test_a_row_past_the_byte_bound_is_reported_and_read_through(tmp_path):
    """The bound is the JSONL line's (limits.max_line_bytes); a quoted cell of many lines
    past it is dropped without being held, and the row after it keeps its line number."""
    path = tmp_path / "cases.csv"
    cell = '"' + 'a ""quoted"" word\n' * 2_000 + '"'
    path.write_text(HEADER + f"Big?,x,{cell}\nNext?,x,y\n")
    (big, after) = outcomes(path, max_line_bytes=10_000)
    assert big == (2, "a row longer than limits.max_line_bytes = 10000 bytes")
    assert after == (2_003, "Next?")
    assert [n for n, _ in outcomes(path)] == [2, 2_003]  # under the default bound: read


def test_a_row_with_more_cells_than_the_header_is_reported(tmp_path):
    path = tmp_path / "cases.csv"
    path.write_text(HEADER + "One?,x,y,stray\nTwo?,x,y\n")
    (bad, good) = outcomes(path)
    assert bad == (2, "4 cells where the header has 3 (a stray quote or comma?)")
    assert good == (3, "Two?")


def test_an_unterminated_quote_reports_its_line_and_reads_the_rest(tmp_path):
    from ragguard.runtime.csvrows import read_csv

    path = tmp_path / "cases.csv"
    path.write_text(HEADER + 'One?,x,y\nTwo?,"x,y\nThree?,x,y\nFour?,x,y\n')
    rows = list(read_csv(path, 1 << 20))
    assert [n for n, _ in rows] == [2, 3, 4, 5]
    assert str(rows[1][1]) == "line 3: <csv>: a quoted cell opened on line 3 is never closed"
    assert [r["input"] for _, r in rows if isinstance(r, dict)] == ["One?", "Three?", "Four?"]


def test_a_jsonl_file_with_a_bom_reads_line_1(tmp_path):
    path = tmp_path / "t.jsonl"
    trace = {"trace_id": "a", "query": "q", "response": "r", "items": []}
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(trace).encode() + b"\n")
    ((number, read),) = read_traces(path)
    assert number == 1 and read.trace_id == "a"


def test_a_stray_quote_swallowing_whole_rows_is_reported_and_the_rows_are_read(tmp_path):
    from ragguard.runtime.csvrows import read_csv

    path = stray_quote_csv(tmp_path / "cases.csv", 6)
    rows = list(read_csv(path, 1 << 20))
    (number, error), *read = rows
    assert number == 2 and isinstance(error, TraceValidationError)
    assert "a quoted cell opened on line 2 holds 4 lines" in str(error)
    assert "stray quote" in str(error)
    assert [n for n, _ in read] == [3, 4, 5, 6, 7]
    assert read[-1][1]["expected_output"] == '55"'  # a quote inside a cell is a character


def test_100000_rows_after_a_stray_quote_are_all_read(tmp_path):
    """The reader ``evaluate --format`` uses, on the issue's 100,000-row file: one report
    on line 2, and every other row read."""
    path = stray_quote_csv(tmp_path / "cases.csv", 100_000)
    rows = read_foreign(path, "deepeval")
    (number, error) = next(rows)
    assert number == 2 and "holds 99,998 lines" in error.message
    numbers = []
    for number, trace in rows:
        assert not isinstance(trace, TraceValidationError), trace
        numbers.append(number)
    assert len(numbers) == 99_999 and numbers[-1] == 100_001


RAGAS_HEADER = ["user_input", "retrieved_contexts", "response", "reference"]


def test_multi_line_cells_with_commas_and_quotes_are_read_without_a_report(tmp_path):
    """pandas quotes a cell holding a newline, a comma or a quote, and doubles its quotes;
    the lines inside such a cell are not whole rows, and one that happens to split into four
    cells does not make a report while the row keeps the header's width."""
    import csv

    passages = [
        'The tower, "la dame de fer", was built\nfor the 1889 fair.\n',
        "It stands in Paris, France, Europe, on the Champ de Mars.",
    ]
    contexts = repr(passages[:1]) + "\n"
    rows = [
        ["Where is the tower?", str(passages), "In Paris, France.", "In Paris."],
        ["When was it built?", contexts, 'For the "1889" fair,\nin Paris.', "In 1889."],
        ["One line?", "['A passage.']", "Yes.", "Yes."],
        ["Who, when?", "['Paris, France, Europe, Earth\\n', 'b']", "x\na, b, c, d\ny", "z"],
    ]
    path = tmp_path / "ragas.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(RAGAS_HEADER)
        writer.writerows(rows)
    read = list(read_foreign(path, "ragas"))
    assert all(not isinstance(t, TraceValidationError) for _, t in read), read
    assert [t.query for _, t in read] == [r[0] for r in rows]
    assert [i.text for i in read[0][1].items] == passages
    assert read[1][1].response == 'For the "1889" fair,\nin Paris.'
