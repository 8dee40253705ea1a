"""Single-request latency of two or more checkouts of ragguard, measured side by side.

    python benchmarks/speed_paired.py --data DIR [--rounds 5] [--requests 100] NAME=CHECKOUT ...

Each CHECKOUT (a source tree: ``git worktree add /tmp/base f2df668``) gets a process of its
own that loads its Guard and ``speed.py``'s single cold requests. The requests are then
taken in turn: request 1 by every version, in a shuffled order, then request 2, and so on.
Runs of ``speed.py`` one after another drift by 10 to 20% on a shared machine, more than
the difference a change makes; taken in turn, a drift falls on every version alike.
Reports each version's p50 per round and over all rounds, and against the first version:
the ratio of the p50s and the median ratio of the same request's two latencies. Caches are
cleared before each request, as ``speed.py`` does (cold).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import devsets


def serve(data: Path, requests: int) -> None:
    """The worker: the checkout's own ``speed.py`` traces through its own Guard, one request
    per line read (its index), answering with the milliseconds it took."""
    sys.path.insert(0, str(Path.cwd() / "benchmarks"))
    sys.modules.pop("devsets", None)  # the checkout's, as its speed.py reads the data
    import speed  # the checkout's, not this file's: the traces as that version built them

    from ragguard import Guard

    guard = Guard({"batch_size": 64})
    guard.evaluate_many(speed.make_traces(data, 4, 10_000, True))  # load models untimed
    single = speed.make_traces(data, requests, 200, True)
    print("ready", flush=True)
    for line in sys.stdin:
        guard.evaluator.clear_caches()
        started = time.perf_counter()
        guard.evaluate(single[int(line)])
        print(f"{(time.perf_counter() - started) * 1000:.3f}", flush=True)


def _start(checkout: Path, data: Path, requests: int) -> subprocess.Popen[str]:
    worker = subprocess.Popen(
        [sys.executable, __file__, "--worker", "--data", str(data), "--requests", str(requests)],
        cwd=checkout,
        env={**os.environ, "PYTHONPATH": str(checkout)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert worker.stdout is not None
    if worker.stdout.readline().strip() != "ready":
        raise SystemExit(f"{checkout}: the worker did not start (its error is above)")
    return worker


def _ask(worker: subprocess.Popen[str], index: int) -> float:
    assert worker.stdin is not None and worker.stdout is not None
    worker.stdin.write(f"{index}\n")
    worker.stdin.flush()
    return float(worker.stdout.readline())


def _version(text: str) -> tuple[str, Path]:
    name, _, path = text.partition("=")
    checkout = Path(path).resolve()
    if not name or not (checkout / "ragguard" / "__init__.py").is_file():
        raise argparse.ArgumentTypeError(
            f"{text!r}: expected NAME=CHECKOUT, a ragguard source tree"
        )
    return name, checkout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    devsets.add_data_argument(parser)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0, help="of the order within each request")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("versions", nargs="*", type=_version, metavar="NAME=CHECKOUT")
    args = parser.parse_args()
    if args.worker:
        serve(args.data, args.requests)
        return
    if len(args.versions) < 2:
        parser.error("give two versions or more, the first the one the others are compared with")
    workers = {name: _start(path, args.data, args.requests) for name, path in args.versions}
    order = random.Random(args.seed)
    times: dict[str, list[float]] = {name: [] for name in workers}
    try:
        for round_number in range(1, args.rounds + 1):
            for index in range(args.requests):
                names = list(workers)
                order.shuffle(names)
                for name in names:
                    times[name].append(_ask(workers[name], index))
            shown = ", ".join(
                f"{n} {statistics.median(t[-args.requests :]):.1f}" for n, t in times.items()
            )
            print(f"round {round_number} p50 ms: {shown}", flush=True)
    finally:
        for worker in workers.values():
            if worker.stdin is not None:
                worker.stdin.close()
            worker.wait()
    first, *others = workers
    print(
        "all rounds p50 ms: "
        + ", ".join(f"{n} {statistics.median(t):.1f}" for n, t in times.items())
    )
    for name in others:
        paired = statistics.median(b / a for a, b in zip(times[first], times[name], strict=True))
        whole = statistics.median(times[name]) / statistics.median(times[first])
        print(f"{name} / {first}: p50 ratio {whole:.4f}, per-request ratio (median) {paired:.4f}")


if __name__ == "__main__":
    main()
