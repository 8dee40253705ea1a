"""How often the judge rightly overrules a typed check that fired (issue 38's question).

    python benchmarks/judge_overrule.py --data DIR [--flip 0.2]
    python benchmarks/judge_overrule.py --data DIR --base-url URL --model NAME [--limit 30]

For every development pair (WiCE dev, Factcheck-GPT) where a vetoing check (number, date,
negation, entity) fires, the judge is asked about the pair as the cascade would ask it, and
its verdict is compared with the gold label: an overrule (the judge says "supported" where
a check fired) is right when the gold label is supported (the check was a false alarm) and
wrong otherwise (the judge flipped a contradiction). Without ``--base-url``: the stand-in
judge that knows the gold labels and flips ``--flip`` of them (``accuracy_judge.py``);
with it, any OpenAI-compatible judge, such as the tests' llama.cpp server with
SmolLM2-135M (``python tests/support/llama_server.py PORT``, then ``--base-url
http://127.0.0.1:PORT/v1 --model smollm2-135m-instruct``), on the first ``--limit`` fired
pairs of each set (a CPU call takes seconds).

These are development sets: the figures only report. The default of ``[judge]
may_overrule`` is chosen on the training sets' false-alarm rates
(``benchmarks/checks_train.py``) and on safety grounds (docs/judge.md).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import devsets
from accuracy_judge import standin_judge

from ragguard.config import JudgeConfig
from ragguard.judge.cascade import Cascade
from ragguard.judge.questions import pair_question
from ragguard.metrics.summary import markdown_table
from ragguard.scoring.checks import CONTRADICTIONS, check


@contextlib.contextmanager
def judge(args: argparse.Namespace, cases: list[devsets.SupportCase]) -> Iterator[JudgeConfig]:
    """A judge config pointing at the stand-in (started here) or at ``--base-url``."""
    settings = {"backend": "openai", "api_key_env": "RAGGUARD_NO_KEY", "timeout_s": 300}
    settings |= {"max_calls_per_minute": None, "max_tokens_per_day": None}
    if args.base_url is None:
        gold = {c.claim: c.label for c in cases}
        with standin_judge(gold, flip=args.flip) as server:
            yield JudgeConfig(**settings, base_url=server.base_url, model="standin")
    else:
        yield JudgeConfig(
            **settings, base_url=args.base_url, model=args.model, max_output_tokens=48
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    devsets.add_data_argument(parser)
    parser.add_argument("--base-url", help="an OpenAI-compatible judge (default: the stand-in)")
    parser.add_argument("--model", default="smollm2-135m-instruct", help="with --base-url")
    parser.add_argument("--flip", type=float, default=0.2, help="stand-in: share flipped")
    parser.add_argument("--limit", type=int, default=None, help="fired pairs per set")
    args = parser.parse_args()
    sets = {"WiCE dev": devsets.wice(args.data), "Factcheck-GPT": devsets.factcheck_gpt(args.data)}
    judge_name = f"stand-in, flip {args.flip}" if args.base_url is None else args.model
    print(f"judge: {judge_name}; limit {args.limit or 'none'} fired pairs per set", flush=True)
    for name, cases in sets.items():
        rows = []
        fired = []
        for case in cases:
            kinds = sorted(
                {r.check for r in check(case.claim, case.evidence)} & set(CONTRADICTIONS)
            )
            if kinds:
                fired.append((case, kinds))
        fired = fired[: args.limit]
        with judge(args, cases) as config:
            cascade = Cascade(config)
            questions = [pair_question(config, c.claim, c.evidence) for c, _ in fired]
            answers = cascade.ask(questions)
        counts: Counter[tuple[str, str]] = Counter()
        for (case, kinds), got in zip(fired, answers, strict=True):
            verdict = None if got.answer.parsed is None else got.answer.parsed.verdict
            for kind in [*kinds, "any"]:
                counts[kind, "fired"] += 1
                counts[kind, "false alarm"] += case.label
                counts[kind, "answered"] += verdict is not None
                counts[kind, "overruled"] += verdict is True
                counts[kind, "rightly"] += verdict is True and case.label
                counts[kind, "wrongly"] += verdict is True and not case.label
        for kind in [*CONTRADICTIONS, "any"]:
            n = counts[kind, "fired"]
            if not n:
                continue
            over = counts[kind, "overruled"]
            rows.append(
                {
                    "set": name,
                    "check": kind,
                    "fired": n,
                    "gold supported (false alarms)": f"{counts[kind, 'false alarm']}",
                    "judge answered": counts[kind, "answered"],
                    "judge overruled": over,
                    "rightly": counts[kind, "rightly"],
                    "wrongly": counts[kind, "wrongly"],
                    "right share of overrules": f"{counts[kind, 'rightly'] / max(over, 1):.0%}",
                }
            )
        print(markdown_table(rows, list(rows[0])), flush=True)


if __name__ == "__main__":
    main()
