"""Read-only collections for the frozen output models: an ``Evaluation`` handed to an
exporter, a callback or a test cannot be edited by one of them under the others.

``FrozenDict`` is a ``dict`` that refuses every change, so pydantic writes it exactly as it
writes a dict (the JSON stays byte-identical) and it pickles to an evaluation process and
back. Sequences are tuples."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, NoReturn, TypeVar

from pydantic import AfterValidator

K = TypeVar("K")
V = TypeVar("V")


class FrozenDict(dict[K, V]):
    """A dict whose contents are fixed when it is made."""

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("a frozen evaluation's mapping cannot be changed")

    __setitem__ = __delitem__ = __ior__ = _refuse
    update = pop = popitem = clear = setdefault = _refuse

    def __reduce__(self) -> tuple[type[FrozenDict[K, V]], tuple[dict[K, V]]]:
        return (type(self), (dict(self),))

    def __copy__(self) -> FrozenDict[K, V]:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> FrozenDict[K, V]:
        return self


def freeze(value: Any) -> Any:
    """``value`` with every list made a tuple and every dict a ``FrozenDict``, all the way
    down (the ``Metrics`` fields a newer writer added, which no field type fixes)."""
    if isinstance(value, Mapping):
        return FrozenDict({key: freeze(item) for key, item in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(item) for item in value)
    return value


def _frozen_map(value: Mapping[K, V]) -> FrozenDict[K, V]:
    return value if isinstance(value, FrozenDict) else FrozenDict(value)


ReadOnlyMap = Annotated[dict[K, V], AfterValidator(_frozen_map)]
"""A dict field that holds a ``FrozenDict``: validated as a dict, written as one."""
