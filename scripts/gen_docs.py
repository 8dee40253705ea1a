"""Generate the docs pages that are written from code or from a run, so that a default or
a figure is written once: the configuration reference (from the settings' docstrings), the
`ragguard benchmark` tables of the reference-metrics page, and the package tree with its
line counts on the architecture page.

    python3 scripts/gen_docs.py          # rewrite the generated parts of docs/
    python3 scripts/gen_docs.py --check  # exit 1 when docs/ differs from what it generates
"""

from __future__ import annotations

import argparse
import inspect
import json
import subprocess
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's ragguard, whatever is installed
CONFIG_PAGE = ROOT / "docs" / "config-reference.md"
METRICS_PAGE = ROOT / "docs" / "reference-metrics.md"
ARCHITECTURE_PAGE = ROOT / "docs" / "architecture.md"
TREE_BEGIN = "<!-- generated: tree -->"
GOLDEN = "examples/golden.jsonl"
BEGIN, END = "<!-- generated: ragguard benchmark -->", "<!-- end generated -->"

HEADER = """# Configuration reference

Every setting of a ragguard config file, with its default. This page is generated from
the docstrings in `ragguard/config/` by `python3 scripts/gen_docs.py`; a test keeps the
two equal. See [Configuration](configuration.md) for how a config is given and how the
sections fit together.
"""


def type_name(annotation: Any) -> str:
    """A type as a reader of a TOML file thinks of it."""
    origin = get_origin(annotation)
    if origin is Literal:
        return " | ".join(json.dumps(value) for value in get_args(annotation))
    if origin in (Union, types.UnionType):
        return " | ".join(type_name(arg) for arg in get_args(annotation))
    if origin in (list, tuple):
        args = [type_name(arg) for arg in get_args(annotation) if arg is not Ellipsis]
        return f"[{', '.join(args)}]" if origin is tuple else f"list of {args[0]}"
    if origin is dict:
        key, value = (type_name(arg) for arg in get_args(annotation))
        return f"table of {key} to {value}"
    names = {str: "string", int: "integer", float: "float", bool: "boolean"}
    names[type(None)] = "none"
    names[Path] = "path"
    return names.get(annotation, getattr(annotation, "__name__", str(annotation)))


def toml_value(value: Any) -> str:
    """A default as it would be written in the file (unset for None)."""
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"{value:_}" if value >= 10_000 else str(value)
    if isinstance(value, Path | str):
        return json.dumps(str(value))
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"
    return repr(value)


def one_line(text: str | None) -> str:
    """A docstring as one Markdown table cell (reStructuredText literals as code)."""
    return " ".join((text or "").split()).replace("``", "`").replace("|", "\\|")


def section_model(field: FieldInfo) -> type[BaseModel] | None:
    annotation = field.annotation
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def rows(model: type[BaseModel]) -> Iterator[str]:
    for key, field in model.model_fields.items():
        if section_model(field) is None:
            default = field.get_default(call_default_factory=True)
            kind = type_name(field.annotation).replace("|", "\\|")
            cells = [f"`{key}`", kind, f"`{toml_value(default)}`"]
            yield "| " + " | ".join([*cells, one_line(field.description)]) + " |"


def table(model: type[BaseModel]) -> str:
    head = "| setting | type | default | meaning |\n|---|---|---|---|\n"
    return head + "\n".join(rows(model)) + "\n"


def config_reference() -> str:
    """The whole configuration reference page."""
    from ragguard.config import Config

    parts = [HEADER, "## Top level\n", "Keys outside any section.\n", table(Config)]
    for key, field in Config.model_fields.items():
        section = section_model(field)
        if section is not None:
            doc = inspect.getdoc(section) or ""
            doc = doc.replace("``", "`")
            parts += [f"## `[{key}]`\n", doc + "\n" if doc else "", table(section)]
    return "\n".join(part for part in parts if part)


def benchmark_tables() -> str:
    """What `ragguard benchmark` prints for the shipped golden set (summary lines aside)."""
    run = subprocess.run(
        [sys.executable, "-m", "ragguard.cli", "benchmark", GOLDEN],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    return run.stdout.strip("\n") + "\n"


def metrics_page(current: str) -> str:
    """The reference-metrics page with its generated block replaced by a fresh run."""
    start, end = current.index(BEGIN) + len(BEGIN), current.index(END)
    block = f"\n```\n{benchmark_tables()}```\n"
    return current[:start] + block + current[end:]


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def package_tree() -> str:
    """Each package of ragguard with its modules and their line counts, bottom-up as the
    folders list them; the root's modules first."""
    package = ROOT / "ragguard"
    rows = []
    folders = [package, *sorted(p for p in package.rglob("*") if (p / "__init__.py").is_file())]
    for folder in folders:
        modules = sorted(folder.glob("*.py"), key=lambda m: (m.stem != "__init__", m.stem))
        name = folder.relative_to(package.parent).as_posix() + "/"
        total = sum(_lines(m) for m in modules)
        lines = [""]
        for entry in (f"{m.stem} {_lines(m)}" for m in modules):
            joined = f"{lines[-1]} · {entry}" if lines[-1] else entry
            if len(joined) > 64 and lines[-1]:
                lines.append(entry)
            else:
                lines[-1] = joined
        rows.append(f"{name:<26}{total:>6}  {lines[0]}")
        rows += [" " * 34 + line for line in lines[1:]]
    return "\n".join(rows)


def architecture_page(current: str) -> str:
    """The architecture page with its tree block replaced by the tree as it is."""
    start, end = (
        current.index(TREE_BEGIN) + len(TREE_BEGIN),
        current.index(END, current.index(TREE_BEGIN)),
    )
    block = f"\n```\n{package_tree()}\n```\n"
    return current[:start] + block + current[end:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    pages = {
        CONFIG_PAGE: config_reference(),
        METRICS_PAGE: metrics_page(METRICS_PAGE.read_text(encoding="utf-8")),
        ARCHITECTURE_PAGE: architecture_page(ARCHITECTURE_PAGE.read_text(encoding="utf-8")),
    }
    stale = [p for p, text in pages.items() if p.read_text(encoding="utf-8") != text]
    if args.check:
        for page in stale:
            print(f"{page.relative_to(ROOT)} is stale: run python3 scripts/gen_docs.py")
        return 1 if stale else 0
    for page in stale:
        page.write_text(pages[page], encoding="utf-8")
        print(f"wrote {page.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
