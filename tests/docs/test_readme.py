"""The headline Python example (the README's, and the Python API page's) runs and reads
as its comments say."""

import re

import pytest

from tests.support.docs_blocks import ROOT, blocks

STATED = re.compile(r"^(?P<expr>\S.*?)\s+#\s+(?P<value>True|False|\"[^\"]*\")")


def headline_example(page: str) -> str:
    (code,) = [code for _, code in blocks(ROOT / page, "python") if "guard.evaluate(trace)" in code]
    return code


@pytest.mark.parametrize("page", ["README.md", "docs/python-api.md"])
def test_the_python_example_gives_the_verdicts_its_comments_state(guard, monkeypatch, page):
    code = headline_example(page)
    monkeypatch.setattr("ragguard.Guard", lambda *args, **kwargs: guard)  # models load once
    namespace: dict = {}
    exec(compile(code, page, "exec"), namespace)
    stated = [m for line in code.splitlines() if (m := STATED.match(line))]
    assert len(stated) >= 4
    for match in stated:
        assert eval(match["expr"], namespace) == eval(match["value"]), match.group(0)
