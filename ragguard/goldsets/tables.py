"""Per-pipeline x per-category tables of reference-based metrics (``ragguard benchmark``).

A cell is the mean over the group's traces that define the metric. Metrics that are read
together (a precision, its recall and their F1) are averaged over the same traces: those
that define both precision and recall, so that a row's F1 is the F1 of traces whose
precision and recall sit beside it. A cell averaged over fewer traces than the row's ``n``
shows its count. Each pipeline with more than one category also gets a "(macro)" row: the
mean of its category means, FATHOMS-RAG's overall score, applied to every metric so one row
means one thing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter

from ragguard.goldsets.fathoms import macro_average
from ragguard.goldsets.score import ReferenceScores

Value = float | bool | None


@dataclass(frozen=True, slots=True)
class Column:
    header: str
    get: Callable[[ReferenceScores], Value]
    spec: str = ".3f"
    needs: tuple[str, ...] = ()
    """Headers of the columns a trace must also define to count in this one's mean."""


def _field(header: str, path: str, *needs: str) -> Column:
    """A column reading a dotted field of ReferenceScores ("mirage.info_recall")."""
    return Column(header, attrgetter(path), needs=needs)


@dataclass(frozen=True, slots=True)
class Table:
    title: str
    columns: tuple[Column, ...]

    def basis(self, column: Column) -> tuple[Column, ...]:
        """The columns a trace must define for ``column`` to count it."""
        return tuple(c for c in self.columns if c.header in (column.header, *column.needs))


TABLES: tuple[Table, ...] = (
    Table(
        "Information - MIRAGE InfoF1. P: response claims supported by the retrieved items "
        "(single-source) or by the reference (-ref); R: reference claims the response covers "
        "(-w: weighted)",
        (
            _field("InfoP", "mirage.info_precision", "InfoR"),
            _field("InfoP-ref", "mirage.info_precision_reference", "InfoR"),
            _field("InfoR", "mirage.info_recall", "InfoP"),
            _field("InfoR-w", "mirage.info_recall_weighted", "InfoP"),
            _field("InfoF1", "mirage.info_f1", "InfoP", "InfoR"),
            _field("InfoF1-ref", "mirage.info_f1_reference", "InfoP-ref", "InfoR"),
        ),
    ),
    Table(
        "Citations - MIRAGE CiteF1 (claim level. P: cited items support the claim; R: proper "
        "attribution) beside ALCE (sentence level)",
        (
            _field("CiteP", "mirage.cite_precision", "CiteR"),
            _field("CiteP-ref", "mirage.cite_precision_reference"),
            _field("CiteR", "mirage.cite_recall", "CiteP"),
            _field("CiteF1", "mirage.cite_f1", "CiteP", "CiteR"),
            _field("ALCE-P", "alce.citation_precision", "ALCE-R"),
            _field("ALCE-R", "alce.citation_recall", "ALCE-P"),
            _field("ALCE-F1", "alce.citation_f1", "ALCE-P", "ALCE-R"),
        ),
    ),
    Table(
        "Retrieval context - CRUX: sub-question coverage of the context Z and the response y; "
        "redundant: items per trace that answer no new sub-question",
        (
            _field("Cov(Z)", "crux.coverage_context"),
            _field("a-nDCG", "crux.alpha_ndcg"),
            _field("Cov(y)", "crux.coverage_response"),
            _field("Den(Z)", "crux.density_context"),
            _field("Den(y)", "crux.density_response"),
            Column(
                "redundant",
                lambda r: None if r.crux.coverage_context is None else len(r.crux.redundant_items),
                ".2f",
            ),
        ),
    ),
    Table(
        "Answers - FATHOMS-RAG: correctness is phrase-level recall; a hallucination is a "
        "statement (not an abstention) with correctness < 1",
        (
            _field("correct", "fathoms.correctness"),
            _field("halluc.", "fathoms.hallucination"),
            Column(
                "abstain", lambda r: None if r.fathoms.correctness is None else r.fathoms.abstained
            ),
        ),
    ),
)


def _groups(scores: Sequence[ReferenceScores]) -> dict[str, dict[str, list[ReferenceScores]]]:
    grouped: dict[str, dict[str, list[ReferenceScores]]] = {}
    for score in scores:
        grouped.setdefault(score.pipeline, {}).setdefault(score.category, []).append(score)
    return {p: dict(sorted(c.items())) for p, c in sorted(grouped.items())}


Cell = tuple[float | None, int]
"""A cell's mean and the number of traces it is the mean of."""


def cell(table: Table, column: Column, by_category: dict[str, list[ReferenceScores]]) -> Cell:
    """Macro average over the categories given (a plain mean for one category), over the
    traces that define every column of ``column``'s family."""
    basis = table.basis(column)
    values = {
        category: [
            float(column.get(s))  # type: ignore[arg-type]
            for s in group
            if all(c.get(s) is not None for c in basis)
        ]
        for category, group in by_category.items()
    }
    return macro_average(values), sum(map(len, values.values()))


def table_rows(
    table: Table, scores: Sequence[ReferenceScores]
) -> list[tuple[str, str, int, list[Cell]]]:
    """(pipeline, category, traces, cells) per row, "(macro)" rows after multi-category ones."""
    rows = []
    for pipeline, categories in _groups(scores).items():
        for category, group in categories.items():
            cells = [cell(table, c, {category: group}) for c in table.columns]
            rows.append((pipeline, category, len(group), cells))
        if len(categories) > 1:
            cells = [cell(table, c, categories) for c in table.columns]
            total = sum(len(g) for g in categories.values())
            rows.append((pipeline, "(macro)", total, cells))
    return rows


def _shown(column: Column, value: float | None, count: int, n: int) -> str:
    """A cell's text: its mean, with its trace count when that is not the row's n."""
    if value is None:
        return "-"
    return format(value, column.spec) + ("" if count == n else f" [{count}]")


def _aligned(rows: list[list[str]]) -> list[str]:
    """Left-align the two label columns, right-align the numbers."""
    widths = [max(len(row[k]) for row in rows) for k in range(len(rows[0]))]
    return [
        "  ".join(v.ljust(w) if k < 2 else v.rjust(w) for k, (v, w) in enumerate(pairs))
        for pairs in (zip(row, widths, strict=True) for row in rows)
    ]


def render(scores: Sequence[ReferenceScores]) -> str:
    """All tables as aligned text, skipping a table no trace has data for."""
    blocks = []
    for table in TABLES:
        rows = table_rows(table, scores)
        if all(v is None for *_, cells in rows for v, _ in cells):
            continue
        header = ["pipeline", "category", "n", *(c.header for c in table.columns)]
        body = [
            [pipeline, category, str(n)]
            + [_shown(c, v, k, n) for c, (v, k) in zip(table.columns, cells, strict=True)]
            for pipeline, category, n, cells in rows
        ]
        head, *lines = _aligned([header, *body])
        rule = "-" * len(head)
        note = "[k]: the mean of k traces (those that define both precision and recall)"
        counted = any(k != n for *_, n, cells in rows for v, k in cells if v is not None)
        blocks.append("\n".join([table.title, rule, head, rule, *lines, *[note] * counted]))
    return "\n\n".join(blocks)
