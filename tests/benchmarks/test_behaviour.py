"""The behaviour suite (``benchmarks/behaviour/``, issue 56): its shape (size, held-out cells,
fillers disjoint between the splits, cues found in the language data), the outcome rules of
its runner, and the issue's targets on a seeded sample of 300 cases through one Guard."""

import importlib.util
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "benchmarks" / "behaviour"
SAMPLE, SEED = 300, 56
TARGETS = {"dev": 0.98, "heldout": 0.95}
"""At least 98% right on the dev templates, 95% on the held-out ones: not met yet
(docs/accuracy.md has the sample's figures after each change, and the whole suite)."""
FLOORS = {"dev": 0.97, "heldout": 0.91}
"""What this sample may not fall below until the targets are met: the measured shares less
three points, so a verdict that another CPU's int8 kernels move does not fail the test.
Raise them as rules are fixed."""
CLOSED_CLASS = {"ordinal", "superlative", "hedge", "lead"}
"""Filler lists of closed word classes, which a language's table holds only a few of (its
ordinals, its opinion openers): the two splits may share their elements."""


def _module(name: str):
    spec = importlib.util.spec_from_file_location(name, SUITE / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


generate = _module("generate")
run = _module("run")


@pytest.fixture(scope="module")
def suite():
    return generate.load()


def test_size_and_held_out_cells(suite):
    """At least 3,000 cases in five languages; every family x language cell the script
    allows has at least 40 held-out cases; the cells it does not allow have none."""
    assert len(suite.cases) >= 3000
    assert {c.lang for c in suite.cases} == set(generate.LANGUAGES)
    held = [c for c in suite.cases if c.split == "heldout"]
    for family in generate.FAMILIES:
        for lang in generate.LANGUAGES:
            count = sum((c.family, c.lang) == (family, lang) for c in held)
            if (family, lang) in generate.SKIPPED:
                assert count == 0, (family, lang)
            else:
                assert count >= 40, (family, lang, count)


def _atoms(path: Path) -> set[object]:
    """Every value of a templates file's open-class fillers (a table's fields but its cue)."""
    fillers = tomllib.loads(path.read_text(encoding="utf-8"))["fillers"]
    out: set[object] = set()
    for name, elements in fillers.items():
        if name in CLOSED_CLASS:
            continue
        for element in elements:
            if isinstance(element, dict):
                out.update(value for key, value in element.items() if key != "cue")
            else:
                out.add(element)
    return out


@pytest.mark.parametrize("lang", ["en", "de", "fr", "es", "hi"])
def test_held_out_fillers_disjoint_from_dev(lang):
    dev = _atoms(generate.TEMPLATES / "dev" / f"{lang}.toml")
    held = _atoms(generate.TEMPLATES / "heldout" / f"{lang}.toml")
    assert not dev & held


def test_cues_are_read_from_the_language_data():
    """A word the language data holds is found, one it does not is reported missing; English
    needs none."""
    assert generate.missing_cues("de", ["etwa", "nie", "leider"]) == ["leider"]
    assert generate.missing_cues("en", ["anything"]) == []


def test_numbers_are_written_as_each_language_writes_them():
    assert generate.grouped(12700, "de") == "12.700"
    assert generate.grouped(1240, "es") == "1240"
    assert generate.grouped(12700, "fr") == "12 700"
    assert (
        generate.number_filter(1928, "part", "en", {"early": "e", "mid": "m", "late": "l"}) == "l"
    )
    assert generate.number_filter(1889, "roman", "es", {}) == "XIX"
    assert generate.number_filter(1230, "below", "en", {}) == "1,000"


def _case(expect: str, base: str = ""):
    return generate.Case("c", "dev", "en", "approx", "t", "p", "q", "a", expect, base)


def test_what_counts_as_right():
    """The outcome table of ``run.py``'s docstring, on observed verdicts."""
    flagged = run.Observed("flagged", 0.2, ("entity",), True)
    supported = run.Observed("supported", 0.9, (), True)
    aside = run.Observed("set_aside", None, (), None)
    assert run.right(_case("flag:entity"), flagged, None)
    assert not run.right(_case("flag:date"), flagged, None)
    assert run.right(_case("flag"), flagged, None)
    assert run.right(_case("supported"), supported, None)
    assert not run.right(_case("supported"), aside, None)
    assert run.right(_case("set_aside"), aside, None)
    assert run.right(_case("relevant"), supported, None)
    assert not run.right(_case("off_topic"), supported, None)
    assert run.right(_case("same", "b"), flagged, flagged)
    assert not run.right(_case("same", "b"), flagged, supported)
    assert run.right(_case("lower", "b"), flagged, supported)
    assert not run.right(_case("lower", "b"), supported, supported)


def test_no_share_falls_below_its_floor_on_a_seeded_sample(suite, guard):
    """300 cases drawn with a fixed seed from both splits, batched through one Guard: the
    share right on each split stays at or above its floor (``FLOORS``), and the failure
    message lists the cases read wrong (the whole suite is the benchmark:
    ``python benchmarks/behaviour/run.py``)."""
    cases = run.select(suite.cases, None, SAMPLE, SEED)
    rows = run.results(cases, guard, progress=False)
    shares = {split: run.share_right(r for r in rows if r.case.split == split) for split in FLOORS}
    wrong = [
        f"{r.case.id} {r.case.expect}: {r.case.answer!r} -> {r.answer}" for r in rows if not r.right
    ]
    assert all(shares[s] >= FLOORS[s] for s in FLOORS), (shares, wrong[:20])
