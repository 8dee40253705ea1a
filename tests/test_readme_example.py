"""The README's headline Python example runs and reads as its comments say."""

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
STATED = re.compile(r"^(?P<expr>\S.*?)\s+#\s+(?P<value>True|False|\"[^\"]*\")")


def python_api_example() -> str:
    section = README.read_text(encoding="utf-8").split("## Python API", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_readme_python_example_gives_the_verdicts_its_comments_state(guard, monkeypatch):
    code = python_api_example()
    monkeypatch.setattr("ragguard.Guard", lambda *args, **kwargs: guard)  # models load once
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)
    stated = [m for line in code.splitlines() if (m := STATED.match(line))]
    assert len(stated) >= 4
    for match in stated:
        assert eval(match["expr"], namespace) == eval(match["value"]), match.group(0)
