"""How much the lite tier's numbers move between CPUs: int8 against fp32 products, and each
against itself on another instruction set.

    python benchmarks/cross_cpu.py dump OUT.npz [--traces examples/traces.jsonl]
    python benchmarks/cross_cpu.py compare A.npz [B.npz]
    python benchmarks/cross_cpu.py speed [--repeats 5]

``dump`` encodes every sentence of the traces file (queries, item sentences, answers) with
the bundled MiniLM in int8 and in fp32, evaluates the file with
``embedding_precision = "int8"`` and ``"fp32"``, and saves the sentence vectors and every
item relevance and span support score. ``compare A`` prints int8 against fp32 on one machine
(cosine of the sentence vectors; largest score difference; verdicts that differ); ``compare
A B`` prints each precision of machine A against the same precision of machine B. ``speed`` times
both precisions, interleaved: encoding every sentence of the file with a cold cache, and
``evaluate_many`` over the whole file (caches cleared, models loaded), the best of
``--repeats`` runs each. To run the
dump under the AVX2 kernels on an AVX-512 machine, run it in QEMU's user-mode emulator with
a CPU model that has no AVX-512 (ONNX Runtime picks its kernels from CPUID):

    qemu-x86_64 -cpu Haswell python benchmarks/cross_cpu.py dump avx2.npz --limit 4

(emulation is slow: ``--limit`` keeps the first traces; ``compare`` compares the common
prefix of the two dumps, whose sentences and spans come in the file's order).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")

PRECISIONS = ("int8", "fp32")


def sentences(traces: list[dict]) -> list[str]:
    from ragguard.spans.split import split_sentences

    found: dict[str, None] = {}
    for trace in traces:
        found[trace["query"]] = None
        for item in trace.get("items", []):
            for span in split_sentences(item.get("text") or ""):
                found[span.text] = None
        for span in split_sentences(trace["response"]):
            found[span.text] = None
    return [s for s in found if s.strip()]


def dump(out: Path, traces_file: Path, limit: int | None = None) -> None:
    from ragguard import Config, Guard
    from ragguard.scoring.encoders.embeddings import TextEmbedder

    traces = [json.loads(line) for line in traces_file.read_text().splitlines() if line.strip()]
    traces = traces[:limit]
    texts = sentences(traces)
    arrays: dict[str, np.ndarray] = {}
    for precision in PRECISIONS:
        arrays[f"{precision}_vectors"] = TextEmbedder(precision=precision).encode(texts)
        guard = Guard(Config(embedding_precision=precision))
        evaluations = guard.evaluate_many(traces)
        arrays[f"{precision}_relevance"] = np.array(
            [i.relevance for e in evaluations for i in e.items if i.relevance is not None]
        )
        arrays[f"{precision}_support"] = np.array(
            [s.support for e in evaluations for s in e.spans if s.support is not None]
        )
        arrays[f"{precision}_supported"] = np.array(
            [bool(s.supported) for e in evaluations for s in e.spans if s.support is not None]
        )
    np.savez(out, **arrays)
    print(f"{out}: {len(texts)} sentences, {len(traces)} traces")


def _cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a = a / np.linalg.norm(a, axis=1, keepdims=True)
    b = b / np.linalg.norm(b, axis=1, keepdims=True)
    return np.sum(a * b, axis=1)


def _line(label: str, a: dict[str, np.ndarray], pa: str, b: dict[str, np.ndarray], pb: str) -> None:
    cos = _cosines(a[f"{pa}_vectors"], b[f"{pb}_vectors"])
    rel = np.abs(a[f"{pa}_relevance"] - b[f"{pb}_relevance"])
    sup = np.abs(a[f"{pa}_support"] - b[f"{pb}_support"])
    flips = int(np.sum(a[f"{pa}_supported"] != b[f"{pb}_supported"]))
    print(
        f"{label}: sentence cosine mean {cos.mean():.4f} min {cos.min():.4f} "
        f"(n={len(cos)}); max |vector diff| "
        f"{np.abs(a[f'{pa}_vectors'] - b[f'{pb}_vectors']).max():.2e}; "
        f"relevance max diff {rel.max():.2e}; support max diff {sup.max():.2e}; "
        f"verdicts differing {flips} of {len(sup)}"
    )


def compare(first: Path, second: Path | None) -> None:
    a = dict(np.load(first))
    if second is None:
        _line("int8 vs fp32", a, "int8", a, "fp32")
        return
    b = dict(np.load(second))
    n = {key: min(len(a[key]), len(b[key])) for key in a}  # a dump of fewer traces: its prefix
    a = {key: value[: n[key]] for key, value in a.items()}
    b = {key: value[: n[key]] for key, value in b.items()}
    for precision in PRECISIONS:
        _line(f"{precision}: {first.stem} vs {second.stem}", a, precision, b, precision)


def speed(traces_file: Path, repeats: int) -> None:
    from ragguard import Config, Guard

    traces = [json.loads(line) for line in traces_file.read_text().splitlines() if line.strip()]
    texts = sentences(traces)
    guards = {p: Guard(Config(embedding_precision=p)) for p in PRECISIONS}
    for guard in guards.values():
        guard.evaluate_many(traces[:2])  # load the models
    best: dict[tuple[str, str], float] = {}
    for _ in range(repeats):
        for precision, guard in guards.items():
            guard.evaluator.clear_caches()
            started = time.perf_counter()
            guard.models.embedder.encode(texts)
            encode = time.perf_counter() - started
            guard.evaluator.clear_caches()
            started = time.perf_counter()
            guard.evaluate_many(traces)
            whole = time.perf_counter() - started
            for key, value in (("encode", encode), ("evaluate", whole)):
                best[(precision, key)] = min(best.get((precision, key), value), value)
    for key, label in (
        ("encode", f"encode {len(texts)} sentences"),
        ("evaluate", f"evaluate {len(traces)} traces"),
    ):
        int8, fp32 = best[("int8", key)], best[("fp32", key)]
        print(f"{label}: int8 {int8:.2f} s, fp32 {fp32:.2f} s (x{fp32 / int8:.2f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    dumping = commands.add_parser("dump")
    dumping.add_argument("out", type=Path)
    dumping.add_argument("--traces", type=Path, default=Path("examples/traces.jsonl"))
    dumping.add_argument("--limit", type=int, default=None, help="the first N traces only")
    comparing = commands.add_parser("compare")
    comparing.add_argument("first", type=Path)
    comparing.add_argument("second", type=Path, nargs="?")
    timing = commands.add_parser("speed")
    timing.add_argument("--traces", type=Path, default=Path("examples/traces.jsonl"))
    timing.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    if args.command == "dump":
        dump(args.out, args.traces, args.limit)
    elif args.command == "speed":
        speed(args.traces, args.repeats)
    else:
        compare(args.first, args.second)
    return 0


if __name__ == "__main__":
    sys.exit(main())
