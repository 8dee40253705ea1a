"""The docs' code runs as written, so an example can never rot: every page's Python blocks
in order, in one fresh interpreter per page (as a reader pastes them into one session),
and every TOML block parsed as a config file. The README stays a short front page."""

import json
import os
import re
import subprocess
import sys
import textwrap

import pytest

from ragguard.config import Config
from ragguard.train.datasets import read_labels
from tests.support.docs_blocks import ROOT, blocks, name, user_docs

RUNNER = textwrap.dedent(
    """
    import json, sys
    source, code = json.load(sys.stdin)
    namespace = {"__name__": "__main__"}
    for line, block in code:
        # padded so that a traceback names the page's own line numbers
        exec(compile("\\n" * (line - 1) + block, source, "exec"), namespace)
    """
)
PYTHON_PAGES = [path for path in user_docs() if blocks(path, "python")]


def test_the_python_examples_are_spread_over_the_pages():
    assert sum(len(blocks(path, "python")) for path in PYTHON_PAGES) >= 12
    assert {"README.md", "docs/live.md", "docs/python-api.md"} <= set(map(name, PYTHON_PAGES))


@pytest.mark.parametrize("page", PYTHON_PAGES, ids=name)
def test_every_python_block_of_a_page_runs_in_order(page):
    offline = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    run = subprocess.run(
        [sys.executable, "-c", RUNNER],
        input=json.dumps([name(page), blocks(page, "python")]),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **offline, "PYTHONPATH": str(ROOT)},  # this checkout's ragguard
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-4000:]


FRAGMENTS = [
    (page, line, code) for page in user_docs() for line, code in blocks(page, "python", True)
]


@pytest.mark.parametrize(
    "fragment", [code for *_, code in FRAGMENTS], ids=[f"{name(p)}:{n}" for p, n, _ in FRAGMENTS]
)
def test_every_python_fragment_compiles(fragment):
    compile(fragment, "fragment", "exec")


TOML = [(page, line, code) for page in user_docs() for line, code in blocks(page, "toml")]


@pytest.mark.parametrize(
    "toml", [code for _, _, code in TOML], ids=[f"{name(p)}:{n}" for p, n, _ in TOML]
)
def test_every_toml_block_is_a_config_file(tmp_path, toml):
    path = tmp_path / "ragguard.toml"
    path.write_text(toml)
    assert Config.from_file(path) != Config()  # valid, and each block sets something


def test_the_labels_example_is_what_train_reads(tmp_path):
    (example,) = [
        code
        for _, code in blocks(ROOT / "docs" / "training.md", "json")
        if '"claim"' in code and '"label"' in code
    ]
    path = tmp_path / "my_labels.jsonl"
    path.write_text(example)
    assert [pair.label for pair in read_labels(path, "support")] == [1, 0]


def test_the_readme_is_a_front_page_with_wrap_on_its_first_screen():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300
    assert any("ragguard.wrap(chain)" in line for line in lines[:100])
    assert FRAGMENTS  # the first screen's one-liner, compiled


LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("page", [ROOT / "README.md", ROOT / "CHANGELOG.md"], ids=name)
def test_the_front_pages_link_only_to_files_that_exist(page):
    """The docs pages' links are checked by ``mkdocs build --strict``; these two are not
    part of the site."""
    targets = [t for t in LINK.findall(page.read_text()) if "://" not in t]
    assert targets or page.name == "CHANGELOG.md"
    missing = [t for t in targets if not (page.parent / t).exists()]
    assert not missing


# issue numbers, commit ids, paths out of the repository: meaningless to a reader
INTERNAL = re.compile(r"\b[Ii]ssue \d+|\.\./shared|\(\b[0-9a-f]{7,40}\b\^?\)|\b[0-9a-f]{7}\^")


@pytest.mark.parametrize("page", user_docs(), ids=name)
def test_user_docs_name_no_issue_commit_or_outside_path(page):
    assert not INTERNAL.findall(page.read_text(encoding="utf-8"))


def test_every_page_is_in_the_site_navigation():
    site = (ROOT / "mkdocs.yml").read_text()
    pages = [str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md")]
    assert [page for page in pages if f": {page}" not in site] == []
