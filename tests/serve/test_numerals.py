"""Whole numbers from untrusted text are ASCII digits only: ``'²'.isdigit()`` is true, and
``int('²')`` raises."""

from __future__ import annotations

import pytest

from ragguard.errors import RagguardError
from ragguard.serve.addresses import parse
from ragguard.serve.dialects.values import indexed
from ragguard.serve.numerals import ascii_int


def test_only_ascii_digits_make_a_number() -> None:
    assert ascii_int("4318") == 4318
    for text in ("\u00b2", "\u0663", "", " 1", "+1", "-1", "1_000", "1" * 19):
        assert ascii_int(text) is None, text


@pytest.mark.parametrize("port", ["\u00b2", "\u0663\u0663", "70000", "", "１２"])
def test_a_port_that_is_not_ascii_digits_is_a_typed_error(port) -> None:
    with pytest.raises(RagguardError, match="HOST:PORT"):
        parse(f"127.0.0.1:{port}")


def test_an_attribute_index_that_is_not_ascii_digits_is_skipped() -> None:
    attributes = {"docs.0.content": "a", "docs.\u00b2.content": "b", "docs.1.content": "c"}
    assert indexed(attributes, "docs") == [{"content": "a"}, {"content": "c"}]
