"""A small thread-safe LRU map: the embedding cache and the relevance-score cache share it."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping, Sequence
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LRU(Generic[K, V]):
    """Keeps at most ``size`` entries (0: keeps none), evicting the least recently used."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get_many(self, keys: Sequence[K]) -> dict[K, V]:
        """The entries present among ``keys`` (each marked as just used)."""
        with self._lock:
            found = {k: self._entries[k] for k in keys if k in self._entries}
            for key in found:
                self._entries.move_to_end(key)
        return found

    def put_many(self, entries: Mapping[K, V]) -> None:
        if not self.size:
            return
        with self._lock:
            self._entries.update(entries)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
