"""A soak: a wrapped LangChain chain at a steady request rate for a long time, watching the
memory, threads and file descriptors of the application and of the evaluation child.

    python benchmarks/soak.py [--minutes 30] [--rate 20] [--warmup-minutes 10] [--json out]
    python benchmarks/soak.py --judge-model MODEL.gguf [--n-ctx 4096] ...  # the judge on

The chain is ``overhead.py``'s: an LCEL retrieval chain over the passages of
examples/traces.jsonl with the bundled MiniLM, a scripted chat model replaying their
answers. Every question is made unique (the request number is appended), so the
embedding and score caches keep taking new entries, as under real traffic, and must stop
growing at their bounds. Requests are paced to ``--rate`` per second from one thread
(a request that runs late makes the next start at once; the achieved rate is reported).

Every ``--every`` seconds it samples the resident memory (VmRSS), threads and open
descriptors of this process and of the child, and ``ragguard.stats()``. At the end: the
curve (start, end of warm-up, end) and the verdict "flat" when the child's and the
application's RSS grew less than 5% from the end of the warm-up to the end (the issue's
criterion for a 30-minute run: the last 20 minutes). A run shorter than the caches take
to fill says nothing about where growth stops: the report says how full the child's
caches could have got (requests versus the embedding cache's entries).

``--judge-model`` turns on ``[judge] backend = "local"`` with that GGUF in the child (its
default band, 2 threads, ``--n-ctx``, ``--judge-timeout``), so the child's RSS includes the
judge's model and context; the report then says what became of the in-band spans (the
child's watchdog makes room for the judge's deadlines itself: ``live.child.batch_limits``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from langchain_core.documents import Document
from langchain_core.vectorstores import InMemoryVectorStore
from overhead import QueryEmbeddings, build_chain, load_traces

import ragguard


def sample(pid: int | None) -> dict[str, float]:
    """VmRSS (MB), threads and open descriptors of ``pid`` (None: nothing)."""
    if pid is None:
        return {"rss_mb": float("nan"), "threads": float("nan"), "fds": float("nan")}
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.split()
    return {
        "rss_mb": int(fields["VmRSS"][0]) / 1024,
        "threads": int(fields["Threads"][0]),
        "fds": len(os.listdir(f"/proc/{pid}/fd")),
    }


def point(t_s: float, sent: int, child: int | None) -> dict:
    """One sample of the curve: counters and both processes' resources."""
    stats = ragguard.stats()
    return {
        "t_s": round(t_s, 1),
        "requests": sent,
        "evaluated": stats.evaluated,
        "dropped": stats.dropped,
        "failed": stats.failed,
        "app": sample(os.getpid()),
        "child": sample(child),
    }


def growth(curve: list[dict], who: str, since_s: float) -> float:
    """Relative RSS growth of ``who`` from the first sample at or after ``since_s`` to the
    last sample."""
    after = [row for row in curve if row["t_s"] >= since_s] or curve[-1:]
    start, end = after[0][who]["rss_mb"], curve[-1][who]["rss_mb"]
    return (end - start) / start


def soak_arguments(description: str | None) -> argparse.ArgumentParser:
    """The options of a soak (this one and ``serve_soak.py``'s)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--rate", type=float, default=20.0, help="requests per second")
    parser.add_argument("--warmup-minutes", type=float, default=10.0)
    parser.add_argument("--every", type=float, default=10.0, help="seconds between samples")
    parser.add_argument("--json", help="write the curve here")
    parser.add_argument("--judge-model", help="a GGUF: the local judge on in the child")
    parser.add_argument("--n-ctx", type=int, default=4096, help="the local judge's context")
    parser.add_argument(
        "--judge-timeout", type=float, default=20.0, help="the judge's deadline (s) per call"
    )
    return parser


def main() -> None:
    args = soak_arguments(__doc__).parse_args()

    traces = load_traces()
    questions = [t["query"] for t in traces]
    store = InMemoryVectorStore(QueryEmbeddings())
    store.add_documents(
        [Document(text) for text in sorted({i["text"] for t in traces for i in t["items"]})]
    )
    chain = build_chain(store, [t["response"] for t in traces], 0.0)
    judged: Counter[str] = Counter()
    config = {}
    if args.judge_model:
        config["judge"] = {
            "backend": "local",
            "model": args.judge_model,
            "n_ctx": args.n_ctx,
            "timeout_s": args.judge_timeout,
        }
    monitor = ragguard.Monitor(config)
    wrapped = ragguard.wrap(
        chain,
        monitor=monitor,
        on_evaluation=lambda e: judged.update(
            "answered" if s.judge and s.judge.verdict is not None else s.judge_skipped
            for s in e.spans
            if s.judge or s.judge_skipped
        ),
    )
    wrapped.invoke(questions[0])
    ragguard.flush(300)  # the child is up, its models loaded: the curve starts here
    child = monitor.process.pid if monitor.process is not None else None

    curve: list[dict] = []
    started = time.monotonic()
    end = started + args.minutes * 60
    next_sample = started
    sent = 0
    while (now := time.monotonic()) < end:
        if now >= next_sample:
            curve.append(point(now - started, sent, child))
            next_sample += args.every
        wrapped.invoke(f"{questions[sent % len(questions)]} (request {sent})")
        sent += 1
        time.sleep(max(0.0, started + sent / args.rate - time.monotonic()))
    elapsed = time.monotonic() - started
    ragguard.flush(300)
    curve.append(point(time.monotonic() - started, sent, child))
    report(args, curve, sent, elapsed, monitor)
    if args.judge_model:
        print(f"in-band spans: {dict(judged)}")
    if args.json:
        Path(args.json).write_text(json.dumps(curve, indent=1))


def milestones(curve: list[dict], warm_s: float) -> list[tuple[str, dict]]:
    """The curve's start, its first sample after the warm-up, and its end."""
    warm = next((row for row in curve if row["t_s"] >= warm_s), curve[-1])
    return [("start", curve[0]), ("after warm-up", warm), ("end", curve[-1])]


def report(
    args: argparse.Namespace, curve: list[dict], sent: int, elapsed: float, monitor: object
) -> None:
    warm_s = args.warmup_minutes * 60
    print(
        f"\nsoak: {args.minutes:g} min at {args.rate:g} requests/s asked, {sent / elapsed:.1f}/s "
        f"achieved; {curve[-1]['evaluated']} evaluated, {curve[-1]['dropped']} dropped, "
        f"{curve[-1]['failed']} failed of {sent} requests (the first, untimed, aside); machine: "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end"
    )
    print("point          | t (s) | child RSS MB | app RSS MB | child thr/fds | app thr/fds")
    for name, row in milestones(curve, warm_s):
        child, app = row["child"], row["app"]
        print(
            f"{name:<14} | {row['t_s']:>5.0f} | {child['rss_mb']:>12.1f} | {app['rss_mb']:>10.1f}"
            f" | {child['threads']:>5.0f} / {child['fds']:<5.0f} | "
            f"{app['threads']:>3.0f} / {app['fds']:.0f}"
        )
    child_growth, app_growth = growth(curve, "child", warm_s), growth(curve, "app", warm_s)
    flat = child_growth < 0.05 and app_growth < 0.05
    print(
        f"RSS growth from the end of warm-up to the end: child {100 * child_growth:+.1f}%, "
        f"app {100 * app_growth:+.1f}% -> {'flat' if flat else 'NOT flat'} (< 5% each)"
    )
    cache = getattr(getattr(monitor, "config", None), "cache_size", 0)
    print(
        f"requests {sent} against an embedding cache of {cache} entries: "
        + ("it could have filled" if sent > cache else "too few to fill it (a short run)")
    )


if __name__ == "__main__":
    main()
