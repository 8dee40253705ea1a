"""The cache registry: every memoized function registered, cleared at once, bounded by
entries and by bytes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import ragguard
from ragguard.runtime import caches
from ragguard.runtime.caches import cache_stats, clear_caches, deep_size, memoized, set_max_bytes
from ragguard.scoring.checks import check

PACKAGE = Path(ragguard.__file__).parent


def test_no_module_memoizes_outside_the_registry() -> None:
    unregistered = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if "lru_cache" in path.read_text(encoding="utf-8")
        or "functools.cache" in path.read_text(encoding="utf-8")
    ]
    assert unregistered == []


def test_clear_caches_empties_every_cache_the_checks_filled() -> None:
    check("The Eiffel Tower is in Berlin.", "The Eiffel Tower is a lattice tower in Paris.")
    filled = {s.name for s in cache_stats() if s.entries}
    assert {"ragguard.scoring.checks.check", "ragguard.scoring.checks.parse.parse"} <= filled
    assert "ragguard.scoring.lexical.text.stem" in filled
    clear_caches()
    assert all(s.entries == 0 and s.bytes == 0 for s in cache_stats())


def test_a_prefix_clears_only_its_modules() -> None:
    check("Water boils at 90 degrees.", "Water boils at 100 degrees Celsius.")
    clear_caches("ragguard.scoring.checks")
    by_name = {s.name: s for s in cache_stats()}
    assert by_name["ragguard.scoring.checks.check"].entries == 0
    assert by_name["ragguard.scoring.lexical.text.stem"].entries > 0


calls: list[str] = []


@memoized(entries=2)
def _shout(text: str) -> str:
    calls.append(text)
    return text.upper()


def _stats() -> caches.CacheStats:
    return next(s for s in cache_stats() if s.name.endswith("_shout"))


def test_results_are_kept_and_the_least_recently_used_go_first() -> None:
    clear_caches(__name__)
    calls.clear()
    assert [_shout("a"), _shout("b"), _shout("a")] == ["A", "B", "A"]
    assert calls == ["a", "b"]
    _shout("c")  # over two entries: "b" was used least recently
    _shout("a")
    _shout("b")
    assert calls == ["a", "b", "c", "b"]
    assert _stats().entries == 2


def test_a_function_of_several_arguments_is_keyed_by_all_of_them() -> None:
    """Several arguments are keyed together, and a default left out is another key."""
    seen: list[tuple[str, str]] = []

    @memoized(entries=10)
    def joined(first: str, second: str = "-") -> str:
        seen.append((first, second))
        return first + second

    assert [joined("a", "b"), joined("a", "c"), joined("a", "b"), joined("a")] == [
        "ab",
        "ac",
        "ab",
        "a-",
    ]
    assert seen == [("a", "b"), ("a", "c"), ("a", "-")]
    stats = next(s for s in cache_stats() if s.name.endswith("joined"))
    assert (stats.entries, stats.misses) == (3, 3)


def test_the_byte_bound_evicts_and_a_result_over_it_is_not_kept() -> None:
    clear_caches(__name__)
    calls.clear()
    before = caches.max_bytes()
    try:
        _shout("x" * 1000)
        assert _stats().bytes >= deep_size("x" * 1000)
        set_max_bytes(100)  # smaller than the entry held: it goes at once
        assert _stats().entries == 0
        _shout("y" * 1000)
        _shout("y" * 1000)
        assert calls == ["x" * 1000, "y" * 1000, "y" * 1000]
        with pytest.raises(ValueError):
            set_max_bytes(-1)
    finally:
        set_max_bytes(before)


def test_a_cleared_cache_keeps_what_it_learnt_of_its_results_sizes(monkeypatch) -> None:
    """Only the first SAMPLE_EVERY results of a cache's life, then every SAMPLE_EVERY-th,
    are measured: clearing it (as a cold-cache benchmark does before each request) does not
    start the measuring over."""
    measured: list[object] = []

    def counting(value: object, seen: set[int] | None = None) -> int:
        measured.append(value)
        return deep_size(value, seen)

    @memoized(entries=100)
    def whisper(text: str) -> str:
        return text.lower()

    monkeypatch.setattr(caches, "deep_size", counting)
    for n in range(caches.SAMPLE_EVERY):
        whisper(f"First {n}")
    first = len(measured)
    clear_caches(__name__)
    for n in range(caches.SAMPLE_EVERY - 1):
        whisper(f"Again {n}")
    stats = next(s for s in cache_stats() if s.name.endswith("whisper"))
    assert first > 0
    assert len(measured) == first
    assert stats.misses == caches.SAMPLE_EVERY - 1  # the stats still count since the clear
    assert stats.bytes > 0


def test_deep_size_counts_what_containers_hold_once() -> None:
    word = "paris" * 20
    assert deep_size((word,)) == sys.getsizeof((word,)) + sys.getsizeof(word)
    assert deep_size((word, word)) == sys.getsizeof((word, word)) + sys.getsizeof(word)


def test_instance_caches_share_the_registry_and_the_total_bound() -> None:
    """The embedding, score, image and judge caches are the same type as the memoized
    functions': cleared by clear_caches(), counted in the one total, evicted under it."""
    from ragguard.runtime.caches import Cache, total_bytes

    clear_caches()  # entries of other tests' caches would be older than these
    before = caches.max_bytes()
    vectors: Cache[str, bytes] = Cache(f"{__name__}.vectors", entries=100)
    try:
        vectors.put_many({f"k{n}": b"v" * 10_000 for n in range(10)})
        assert len(vectors) == 10
        assert total_bytes() >= 10 * 10_000
        set_max_bytes(total_bytes() - 25_000)  # over by more than two entries
        assert len(vectors) == 7  # its three least recently used went
        assert vectors.get_many(["k0", "k9"]) == {"k9": b"v" * 10_000}
        assert total_bytes() <= caches.max_bytes()
        clear_caches(f"{__name__}.vectors")
        assert len(vectors) == 0 and vectors.stats().bytes == 0
    finally:
        set_max_bytes(before)


def test_clear_caches_reaches_the_embedding_cache(guard) -> None:
    """The evaluator no longer clears its embedders by hand: one call reaches them."""
    embedder = guard.models.embedder
    embedder.encode_full(["A sentence to embed and keep."])
    assert len(embedder._cache) > 0
    clear_caches()
    assert len(embedder._cache) == 0


@pytest.mark.parametrize(
    ("written", "ok"),
    [("1048576", True), ("a lot", False), ("²", False), ("9" * 5000, False)],
    ids=["bytes", "words", "superscript", "5,000 nines"],
)
def test_the_byte_setting_comes_from_the_environment_when_first_used(
    written: str, ok: bool
) -> None:
    """A bad value no longer breaks ``import ragguard``: the first Guard names the variable
    (5,000 nines: on 394702e, int() past 4,300 digits raised a ValueError on import)."""
    environment = {**os.environ, caches.MAX_BYTES_VARIABLE: written}
    code = (
        "import ragguard, ragguard.cli, ragguard.runtime.caches as c\n"
        "print('imported', flush=True)\n"
        "ragguard.Evaluator()\n"
        "print(c.max_bytes())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environment
    )
    assert done.stdout.startswith("imported")
    assert (done.returncode == 0) == ok, done.stderr[-800:]
    if ok:
        assert done.stdout.split()[-1] == written
    else:
        assert caches.MAX_BYTES_VARIABLE in done.stderr
        assert "ConfigError" in done.stderr


def test_the_entry_least_recently_used_in_any_cache_goes_first() -> None:
    """A hot entry of the largest cache outlives cold entries of a smaller one: under the
    total bound, recency across caches decides, not a cache's size."""
    from ragguard.runtime.caches import Cache, total_bytes

    clear_caches()
    before = caches.max_bytes()
    vectors: Cache[str, bytes] = Cache(f"{__name__}.hot_vectors", entries=100)
    parses: Cache[str, bytes] = Cache(f"{__name__}.cold_parses", entries=100)
    try:
        vectors.put_many({"passage": b"v" * 50_000})
        parses.put_many({f"question {n}": b"p" * 1_000 for n in range(5)})
        assert vectors.get_many(["passage"])  # used again: now the most recent
        set_max_bytes(total_bytes() - 2_500)  # room for all but about three parses
        assert vectors.get_many(["passage"]) == {"passage": b"v" * 50_000}
        assert len(parses) == 2
        assert parses.get_many(["question 0", "question 4"]) == {"question 4": b"p" * 1_000}
    finally:
        set_max_bytes(before)
        clear_caches(f"{__name__}.")


def test_one_eviction_pass_frees_a_share_of_the_bound() -> None:
    """Over the bound by one byte, entries go until the total is ``1 / EVICT_SHARE`` of the
    bound under it: the next results kept do not each start a pass over every cache."""
    from ragguard.runtime.caches import EVICT_SHARE, Cache, total_bytes

    clear_caches()
    before = caches.max_bytes()
    rows: Cache[str, bytes] = Cache(f"{__name__}.rows", entries=1_000)
    try:
        rows.put_many({f"row {n}": b"r" * 1_000 for n in range(300)})
        limit = total_bytes() - 1
        set_max_bytes(limit)
        assert total_bytes() <= limit - limit // EVICT_SHARE
        assert 1 < 300 - len(rows) < 10
        assert "row 0" not in rows.get_many(["row 0", "row 299"])  # the oldest went first
    finally:
        set_max_bytes(before)
        clear_caches(f"{__name__}.")


def test_a_cache_freed_while_the_lock_is_held_gives_its_bytes_back() -> None:
    """The garbage collector may free a cache, whose ``__del__`` takes the caches' lock, on a
    thread that holds that lock (``Cache.keep`` measures values under it). Run apart, so a
    lock that waits on itself hangs that process, not the tests."""
    script = (
        "import gc\n"
        "from ragguard.runtime import caches\n"
        "cache = caches.Cache('freed', 8)\n"
        "cache.put_many({'key': 'value'})\n"
        "cycle = [cache]\n"
        "cycle.append(cycle)\n"
        "del cache, cycle\n"
        "with caches._LOCK:\n"
        "    gc.collect()\n"
        "print('freed')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "freed"
