"""How much the lite tier's numbers move between CPUs: int8 against fp32 products, and each
against itself on another instruction set.

    python benchmarks/cross_cpu.py dump OUT.npz [--traces examples/traces.jsonl]
    python benchmarks/cross_cpu.py compare A.npz [B.npz]

``dump`` encodes every sentence of the traces file (queries, item sentences, answers) with
the bundled MiniLM in int8 and in fp32, evaluates the file with
``embedding_precision = "int8"`` and ``"fp32"``, and saves the sentence vectors and every
item relevance and span support score. ``compare A`` prints int8 against fp32 on one machine
(cosine of the sentence vectors; largest score difference; verdicts that differ); ``compare
A B`` prints each precision of machine A against the same precision of machine B. To run the
dump under the AVX2 kernels on an AVX-512 machine, run it in QEMU's user-mode emulator with
a CPU model that has no AVX-512 (ONNX Runtime picks its kernels from CPUID):

    qemu-x86_64 -cpu Haswell python benchmarks/cross_cpu.py dump avx2.npz
"""

from __future__ import annotations

import argparse
import json
import os
import sys
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


def dump(out: Path, traces_file: Path) -> None:
    from ragguard import Config, Guard
    from ragguard.scoring.embeddings import TextEmbedder

    traces = [json.loads(line) for line in traces_file.read_text().splitlines() if line.strip()]
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
    for precision in PRECISIONS:
        _line(f"{precision}: {first.stem} vs {second.stem}", a, precision, b, precision)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    dumping = commands.add_parser("dump")
    dumping.add_argument("out", type=Path)
    dumping.add_argument("--traces", type=Path, default=Path("examples/traces.jsonl"))
    comparing = commands.add_parser("compare")
    comparing.add_argument("first", type=Path)
    comparing.add_argument("second", type=Path, nargs="?")
    args = parser.parse_args(argv)
    if args.command == "dump":
        dump(args.out, args.traces)
    else:
        compare(args.first, args.second)
    return 0


if __name__ == "__main__":
    sys.exit(main())
