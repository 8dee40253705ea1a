"""One path for every language: no code outside ``ragguard/language/`` (the lists and their
fallback) and ``ragguard/scoring/wiring/`` (which backbone reads which language) asks whether
a text is English. Counted over the syntax tree: a comparison (``==``, ``!=``, ``in``,
``not in``) with ``"en"``, or with a name bound to ``"en"`` anywhere in the package
(``ENGLISH``, ``FALLBACK``), on either side or inside a tuple, list or set."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "ragguard"
ALLOWED = ("language", "scoring/wiring")
ENGLISH = "en"


def _trees() -> dict[str, ast.Module]:
    return {
        path.relative_to(PACKAGE).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def _english_names(trees: dict[str, ast.Module]) -> frozenset[str]:
    """Every constant a module of the package binds to the string "en" (``ENGLISH = "en"``)."""
    found = set()
    for tree in trees.values():
        for node in tree.body:
            if isinstance(node, ast.Assign):
                value, targets = node.value, node.targets
            elif isinstance(node, ast.AnnAssign):
                value, targets = node.value, [node.target]
            else:
                continue
            if isinstance(value, ast.Constant) and value.value == ENGLISH:
                found |= {t.id for t in targets if isinstance(t, ast.Name) and t.id.isupper()}
    return frozenset(found)


def _is_english(node: ast.expr, names: frozenset[str]) -> bool:
    if isinstance(node, ast.Constant):
        return node.value == ENGLISH
    if isinstance(node, ast.Name):
        return node.id in names
    if isinstance(node, ast.Attribute):
        return node.attr in names
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_is_english(e, names) for e in node.elts)
    return False


def english_comparisons(trees: dict[str, ast.Module], names: frozenset[str]) -> list[str]:
    """``path:line`` of each comparison against English outside the allowed folders."""
    hits = []
    for path, tree in trees.items():
        if path.startswith(ALLOWED):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Compare):
                continue
            operands = [node.left, *node.comparators]
            for op, left, right in zip(node.ops, operands[:-1], operands[1:], strict=True):
                compares = isinstance(op, ast.Eq | ast.NotEq | ast.In | ast.NotIn)
                if compares and (_is_english(left, names) or _is_english(right, names)):
                    hits.append(f"ragguard/{path}:{node.lineno}")
    return hits


def test_no_code_outside_language_and_wiring_compares_a_language_with_english() -> None:
    trees = _trees()
    assert english_comparisons(trees, _english_names(trees)) == []


def test_the_count_sees_each_form_of_the_comparison() -> None:
    names = frozenset({"ENGLISH", "FALLBACK"})
    forms = [
        'language == "en"',
        '"en" != code',
        'code in ("en", "und")',
        'code not in ["en"]',
        "code == ENGLISH",
        "code == routing.ENGLISH",
        "FALLBACK != code",
        'a < b == "en"',
    ]
    for form in forms:
        tree = ast.parse(form)
        assert english_comparisons({"spans/x.py": tree}, names) == ["ragguard/spans/x.py:1"], form
    ignored = ['code == "de"', 'x = "en"', 'f(language="en")', 'code == "en"']
    for form in ignored[:-1]:
        assert english_comparisons({"spans/x.py": ast.parse(form)}, names) == [], form
    assert english_comparisons({"scoring/wiring/x.py": ast.parse(ignored[-1])}, names) == []


def test_the_package_binds_english_to_the_names_the_count_knows() -> None:
    assert {"ENGLISH", "FALLBACK"} <= _english_names(_trees())
