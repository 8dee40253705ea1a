"""Every install hint names this project's distribution, ``ragguard-eval``: the name
``ragguard`` on PyPI belongs to another project, whose import package is also ``ragguard``,
so a hint naming it installs someone else's code over ours."""

import re
import tomllib
from pathlib import Path

from tests.support.docs_blocks import ROOT

DISTRIBUTION = "ragguard-eval"
WRONG = [
    (re.compile(r"(?<![\w.-])ragguard\["), "extras on the `ragguard` distribution"),
    (re.compile(r"pip install\s+['\"]?ragguard(?![\w-])"), "`pip install ragguard`"),
    (re.compile(r"dist/ragguard-"), "a wheel named after the `ragguard` distribution"),
]


def shipped_text_files() -> list[Path]:
    """The package's sources and data, the docs (history aside: it records what was), the
    README, the scripts and the build file."""
    package = [p for p in (ROOT / "ragguard").rglob("*") if p.suffix in {".py", ".md", ".toml"}]
    docs = [p for p in (ROOT / "docs").rglob("*.md") if "history" not in p.parts]
    scripts = [p for p in (ROOT / "scripts").iterdir() if p.is_file()]
    return [*package, *docs, *scripts, ROOT / "README.md", ROOT / "pyproject.toml"]


def test_no_install_hint_names_another_distribution():
    found = []
    for path in shipped_text_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            found += [
                f"{path.relative_to(ROOT)}:{number}: {why}: {line.strip()}"
                for pattern, why in WRONG
                if pattern.search(line)
                and "not `pip install ragguard`" not in line.lower()  # the warning itself
                and "`pip install ragguard` installs another" not in line
            ]
    assert not found, "\n".join(found)


def test_the_hints_name_the_distribution_the_build_makes():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == DISTRIBUTION
    self_references = [
        requirement
        for extra in project["optional-dependencies"].values()
        for requirement in extra
        if requirement.startswith("ragguard")
    ]
    assert self_references and all(r.startswith(f"{DISTRIBUTION}[") for r in self_references)
    hints = [
        line
        for path in shipped_text_files()
        for line in path.read_text(encoding="utf-8").splitlines()
        if f"{DISTRIBUTION}[" in line
    ]
    assert len(hints) >= 10  # the code's messages and the docs both use it


def test_the_install_page_warns_about_the_other_ragguard():
    page = (ROOT / "docs" / "install.md").read_text()
    assert "same import name" in page or "also named `ragguard`" in page
    assert "cannot be installed in one environment" in page
    assert "pip uninstall ragguard" in page
