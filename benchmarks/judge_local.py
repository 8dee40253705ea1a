"""The judge tier with a real local model: lite alone, the judge alone and the cascade.

    python benchmarks/judge_model.py fetch                      # the pinned 1.5B GGUF, verified
    python benchmarks/judge_local.py judge --data DIR --set wice-dev --pairs 300 --share 0.35
    python benchmarks/judge_local.py report --data DIR --pairs 300

``judge`` draws ``--pairs`` seeded pairs of a set (``train``: the short-evidence training
sets; ``train-long``: training pairs with evidence of several sentences; WiCE dev or
Factcheck-GPT), scores them with the lite tier, and asks the local judge (``[judge] backend =
"local"``, the product's client and score question) about them in order of uncertainty, the
lite score nearest its eta first, until ``--share`` of them (or all) are judged or
``--minutes`` pass. Every judge score is cached on disk by (model hash, prompt version,
claim, evidence), so reruns and the report reuse them; each record keeps the seconds, the
prompt tokens sent and evaluated, and the machine's load average when it was asked.

``report`` prints, per dev set, on the same pairs for every row: lite alone, the judge alone
(on the pairs judged, named), and the cascade at judged shares of 15, 25 and 35%: the most
uncertain share of spans decided as the product decides them (the combination card fitted
on the training pairs, ``fit``, ranks them; the in-band window, ``ragguard/judge/share.py``,
decides, the pairs arriving in the seeded draw's order), the rest by the lite verdict.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import devsets
import evidence_window
import judge_model
import judge_prompt_plain

from ragguard.config import JudgeConfig
from ragguard.judge.share import ShareMatch
from ragguard.metrics.agreement import balanced_accuracy, roc_auc
from ragguard.metrics.summary import markdown_table as table

PROMPT_VERSION = "score-v2"
"""Bump when the score question changes: cached scores are keyed by it."""
PROMPTS = ("rules", "plain")
"""The product's score question, or the plain one tried (``judge_prompt_plain.py``)."""
SHARES = (0.15, 0.25, 0.35)
TRAINING = ("train", "train-long")
"""The sets the combination card is fitted on: short evidence and long."""
SETS = ("train", "train-long", "train-cut", "wice-dev", "factcheck-gpt")
PADDED_SOURCES = ("fever-nli-binary", "fever-symmetric", "mnli-binary", "scitail")
"""Training sets whose short evidence ``train-long`` hides among other pairs' evidence."""
LONG_CHARS = (800, 1500)
"""The evidence length ``train-long`` draws from: multi-sentence, within one item's share."""
CUT_CHARS = (1800, 3000)
"""``train-cut``: evidence longer than one item's share (``max_evidence_chars``), on which
the cuts of ``evidence_window.py`` were compared."""


@dataclass(frozen=True)
class Pair:
    claim: str
    evidence: str
    label: bool
    source: str = ""
    """The training set a pair comes from ("summedits", "padded fever-nli-binary"...)."""


def pairs(data: Path, name: str, n: int, seed: int) -> list[Pair]:
    """``n`` seeded pairs of a set; ``train``: drawn evenly from every support training set."""
    if name == "train":
        from ragguard.train.datasets import SUPPORT_SOURCES

        rng = random.Random(seed)
        drawn: list[Pair] = []
        per = -(-n // len(SUPPORT_SOURCES))
        for source in SUPPORT_SOURCES.values():
            rows = [Pair(p.statement, p.context, bool(p.label), p.source) for p in source(data)]
            drawn += rng.sample(rows, min(per, len(rows)))
        return rng.sample(drawn, min(n, len(drawn)))
    if name in ("train-long", "train-cut"):
        return long_pairs(data, n, seed, LONG_CHARS if name == "train-long" else CUT_CHARS)
    reader = devsets.wice if name == "wice-dev" else devsets.factcheck_gpt
    cases = [Pair(c.claim, c.evidence, c.label) for c in reader(data)]
    return random.Random(seed).sample(cases, min(n, len(cases)))


def long_pairs(data: Path, n: int, seed: int, chars: tuple[int, int]) -> list[Pair]:
    """``n`` training pairs with evidence of ``chars`` characters: half
    SummEdits documents that fit one passage, half a short-evidence pair whose evidence sits at
    a random place among other pairs' evidence of the same set (the label holds: the others
    are about other claims). A real judge's "yes" rate moves with the evidence's length, so
    its card must see long evidence as well as short."""
    from ragguard.train.datasets import SUPPORT_SOURCES

    rng = random.Random(seed)
    low, high = chars
    documents = [
        Pair(p.statement, p.context, bool(p.label), "summedits")
        for p in SUPPORT_SOURCES["summedits"](data)
        if low <= len(p.context) <= high
    ]
    drawn = rng.sample(documents, min(n // 2, len(documents)))
    per = -(-(n - len(drawn)) // len(PADDED_SOURCES))
    for name in PADDED_SOURCES:
        rows = [Pair(p.statement, p.context, bool(p.label)) for p in SUPPORT_SOURCES[name](data)]
        for pair in rng.sample(rows, per):
            target, parts = rng.randint(low, high), [pair.evidence]
            while sum(len(t) + 1 for t in parts) < target:
                other = rng.choice(rows).evidence
                if other != pair.evidence and sum(len(t) + 1 for t in parts) + len(other) <= high:
                    parts.insert(rng.randint(0, len(parts)), other)
                elif sum(len(t) + 1 for t in parts) >= low:
                    break
            drawn.append(Pair(pair.claim, " ".join(parts), pair.label, f"padded {name}"))
    return rng.sample(drawn, min(n, len(drawn)))


def lite_scores(rows: Sequence[Pair]) -> tuple[np.ndarray, float]:
    from judge_band import lite_scores as scores

    from ragguard.evaluation.evaluator import Evaluator

    evaluator = Evaluator()
    found = scores(evaluator, [p.claim for p in rows], [p.evidence for p in rows])
    return found, float(evaluator.models.support_scorer.threshold)


def share_match() -> ShareMatch:
    """The product's in-band window (``judge/share.py``), at the configured defaults: its
    ``decide`` is the policy's (where lite and judge agree, the window never overturns
    them)."""
    defaults = JudgeConfig()
    return ShareMatch(defaults.share_window, defaults.share_warmup)


YES = JudgeConfig().score_threshold
"""The judge's own verdict on a score, as the product's client reads it."""


def cache_file() -> Path:
    return judge_model.cache_dir() / "scores.jsonl"


def shown(pair: Pair, cut: str = "pooled") -> str:
    """What the judge reads of the pair's evidence with ``cut`` (``evidence_window.CUTS``)."""
    return evidence_window.cut(pair.evidence, pair.claim, cut)


def pair_key(pair: Pair, passage: str, prompt: str = "rules") -> str:
    """The cache key of the pair's question with ``passage`` shown (the key of the head cut
    names the whole evidence, as scores cached before the window was chosen do)."""
    head = pair.evidence[: evidence_window.MAX_CHARS]
    text = pair.evidence if passage == head else ["shown", passage]
    version = PROMPT_VERSION if prompt == "rules" else judge_prompt_plain.VERSION
    payload = json.dumps([judge_model.SHA256, version, pair.claim, text])
    return hashlib.sha256(payload.encode()).hexdigest()


def cached() -> dict[str, dict[str, object]]:
    found: dict[str, dict[str, object]] = {}
    if cache_file().exists():
        for line in cache_file().read_text(encoding="utf-8").splitlines():
            with_key = json.loads(line)
            found[with_key["key"]] = with_key
    return found


def uncertain_first(scores: np.ndarray, eta: float) -> np.ndarray:
    return np.argsort(np.abs(scores - eta), kind="stable")


def judge(args: argparse.Namespace) -> None:
    from ragguard.judge.client import JudgeClient
    from ragguard.judge.prompts import SUPPORT_VERDICTS, support_messages

    rows = pairs(args.data, args.set, args.pairs, args.seed)
    scores, eta = lite_scores(rows)
    done = cached()
    config = JudgeConfig(
        backend="local",
        model=str(judge_model.model_path()),
        threads=args.threads,
        timeout_s=600,
        retries=0,
        max_calls_per_minute=None,
        max_tokens_per_day=None,
    )
    client = JudgeClient(config)
    budget = round(args.share * len(rows))
    stop_at = time.monotonic() + args.minutes * 60
    asked = 0
    with cache_file().open("a", encoding="utf-8") as out:
        for index in uncertain_first(scores, eta)[:budget]:
            pair = rows[index]
            passage = shown(pair, args.cut)
            key = pair_key(pair, passage, args.prompt)
            if key in done:
                continue
            if time.monotonic() > stop_at:
                print(f"stopped after {args.minutes} minutes")
                break
            messages = (
                support_messages(pair.claim, [passage], score=True)
                if args.prompt == "rules"
                else judge_prompt_plain.plain_messages(pair.claim, passage)
            )
            started = time.perf_counter()
            answer = client.ask(messages, SUPPORT_VERDICTS, score=True)
            seconds = time.perf_counter() - started
            record = {
                "key": key,
                "set": args.set,
                "score": answer.score,
                "verdict": None if answer.parsed is None else answer.parsed.verdict,
                "skipped": answer.skipped,
                "seconds": round(seconds, 3),
                "input_tokens": answer.input_tokens,
                "prompt_evaluated": answer.prompt_evaluated,
                "load1": round(os.getloadavg()[0], 2),
                "threads": args.threads,
            }
            out.write(json.dumps(record) + "\n")
            out.flush()
            asked += 1
            if asked % 10 == 0:
                print(f"{args.set}: {asked} asked, last {seconds:.1f} s, load {record['load1']}")
    print(f"{args.set}: asked {asked}; {len(rows)} pairs, {budget} in the judged share")


def judged(
    rows: Sequence[Pair], cut: str = "pooled", prompt: str = "rules"
) -> dict[int, dict[str, Any]]:
    """The cached judge records of ``rows`` shown with ``cut`` and asked with ``prompt``, by
    row index (those with a score)."""
    done = cached()
    found = {}
    for index, pair in enumerate(rows):
        record = done.get(pair_key(pair, shown(pair, cut), prompt))
        if record is not None and record.get("score") is not None:
            found[index] = record
    return found


@dataclass
class Scored:
    """One set's pairs with their lite scores and the judge records gathered so far."""

    name: str
    rows: list[Pair]
    lite: np.ndarray
    eta: float
    records: dict[int, dict[str, Any]]

    @property
    def labels(self) -> np.ndarray:
        return np.array([p.label for p in self.rows])

    def order(self) -> np.ndarray:
        return uncertain_first(self.lite, self.eta)


def scored(data: Path, name: str, n: int, seed: int) -> Scored:
    rows = pairs(data, name, n, seed)
    lite, eta = lite_scores(rows)
    return Scored(name, rows, lite, eta, judged(rows))


def fit(args: argparse.Namespace) -> None:
    """The combination card for this judge model, from the judged training pairs."""
    from ragguard.calibration.combine import CARDS, fit_combination, render

    lite, judge, labels, drawn = [], [], [], []
    for name in TRAINING:
        train = scored(args.data, name, args.train_pairs, args.seed)
        picked = [i for i in train.order() if i in train.records]
        lite += train.lite[picked].tolist()
        judge += [train.records[i]["score"] for i in picked]
        labels += train.labels[picked].tolist()
        drawn.append(f"{len(picked)} of {len(train.rows)} drawn from {name}")
    fitted = fit_combination(
        lite,
        judge,
        labels,
        train.eta,
        model=judge_model.NAME_CONTAINS,
        source=f"the training sets: the judged pairs nearest the lite eta, {'; '.join(drawn)} "
        f"(seed {args.seed}), benchmarks/judge_local.py",
    )
    print(render(fitted))
    if args.write:
        path = Path(__file__).resolve().parents[1] / "ragguard" / "calibration" / "data" / CARDS
        cards = [c for c in json.loads(path.read_text()) if c["model"] != fitted.card.model]
        cards.append(fitted.card.model_dump(mode="json"))
        path.write_text(json.dumps(cards, indent=2) + "\n")
        path.with_suffix(".md").write_text(render(fitted))
        print(f"wrote {path} and its card {path.with_suffix('.md').name}")


def _row(name: str, predicted: np.ndarray, score: np.ndarray, labels: np.ndarray) -> list[str]:
    auc = roc_auc(score, labels) if len(set(labels.tolist())) == 2 else float("nan")
    return [name, f"{balanced_accuracy(predicted, labels):.3f}", f"{auc:.3f}"]


def report(args: argparse.Namespace) -> None:
    """Per dev set, on the same pairs for every row (module docstring)."""
    from ragguard.calibration.combine import margin, shipped_combination

    card = shipped_combination(judge_model.NAME_CONTAINS)
    print(f"combination card: {card.model_dump() if card else 'none (the judge threshold)'}")
    loads = []
    for name in ("wice-dev", "factcheck-gpt"):
        data = scored(args.data, name, args.pairs, args.seed)
        y, order = data.labels, data.order()
        lite_pred = data.lite >= data.eta
        lines = [[*_row("lite alone", lite_pred, data.lite, y), "0%", "", ""]]
        judged_rows = [i for i in order if i in data.records]
        sub = np.array(judged_rows, dtype=int)
        if sub.size:
            j = np.array([data.records[i]["score"] for i in judged_rows])
            lines.append(
                [*_row(f"judge alone ({sub.size} judged pairs)", j >= 0.5, j, y[sub]), "", "", ""]
            )
            lines.append(
                [
                    *_row(
                        f"lite on the same {sub.size} pairs", lite_pred[sub], data.lite[sub], y[sub]
                    ),
                    "",
                    "",
                    "",
                ]
            )
        for share in SHARES:
            want = order[: round(share * len(data.rows))]
            if not all(i in data.records for i in want):
                lines.append([f"cascade {share:.0%}", "not reached", "", "", "", ""])
                continue
            predicted, score = lite_pred.copy(), data.lite.copy()
            low, high = data.lite[want].min(), data.lite[want].max()
            seconds, tokens, evaluated = [], [], []
            window = share_match()
            for i in sorted(want):  # in the seeded draw's order, as a stream would bring them
                record = data.records[i]
                judge = float(record["score"])
                z = margin(card, data.lite[i], judge, data.eta) if card else judge - 0.5
                yes = judge >= YES
                predicted[i] = window.decide(bool(lite_pred[i]), yes, z) if card else z >= 0
                score[i] = low + (high - low) / (1 + np.exp(-z))  # ranked within the band
                seconds.append(record["seconds"])
                tokens.append(record["input_tokens"])
                evaluated.append(record["prompt_evaluated"] or 0)
                loads.append(record["load1"])
            p50, p95 = np.percentile(seconds, [50, 95])
            lines.append(
                [
                    *_row(f"cascade {share:.0%}", predicted, score, y),
                    f"{len(want) / len(data.rows):.0%}",
                    f"{p50:.1f} / {p95:.1f}",
                    f"{np.mean(tokens):.0f} sent, {np.mean(evaluated):.0f} evaluated",
                ]
            )
        head = [
            "row",
            "balanced accuracy",
            "AUC",
            "judged",
            "s per judged span p50/p95",
            "prompt tokens",
        ]
        print(f"\n{name}: {len(data.rows)} pairs (seed {args.seed}), lite eta {data.eta:.3f}")
        print(table([dict(zip(head, line, strict=False)) for line in lines], head))
    if loads:
        print(
            f"\nload average (1 min) while judging: median {np.median(loads):.1f}, "
            f"max {max(loads):.1f}, on {os.cpu_count()} cores"
        )


def standin(args: argparse.Namespace) -> None:
    """The biased stand-in judge (``accuracy_judge.py``, "supported" with probability
    ``--bias`` whatever the truth, with a score): its card fitted on the same training pairs,
    then the cascade on the dev sets at each share, beside the lite tier; "window alone":
    the in-band window deciding on the judge's own score, as if a card had trusted it."""
    from accuracy_judge import StandInJudge

    from ragguard.calibration.combine import fit_combination, margin, own_threshold

    def judge_scores(data: Scored, picked: Sequence[int]) -> np.ndarray:
        stand_in = StandInJudge({p.claim: p.label for p in data.rows}, bias=args.bias)
        found = []
        for i in picked:
            verdict = stand_in.verdict(data.rows[i].claim)
            found.append(stand_in.score(data.rows[i].claim, bool(verdict)))
        return np.array(found)

    lite, judge, labels = [], [], []
    for name in TRAINING:
        train = scored(args.data, name, args.train_pairs, args.seed)
        picked = train.order()[: round(args.train_share * len(train.rows))]
        lite += train.lite[picked].tolist()
        judge += judge_scores(train, picked).tolist()
        labels += train.labels[picked].tolist()
    fitted = fit_combination(
        lite,
        judge,
        labels,
        train.eta,
        model="stand-in",
        source=f"{len(labels)} training pairs",
    )
    card = fitted.card
    print(f"stand-in bias {args.bias}: card {card.model_dump()}")
    lines = []
    for name in ("wice-dev", "factcheck-gpt"):
        data = scored(args.data, name, args.pairs, args.seed)
        y, lite_pred = data.labels, data.lite >= data.eta
        line = {"set": name, "lite alone": balanced_accuracy(lite_pred, y)}
        for share in SHARES:
            want = data.order()[: round(share * len(data.rows))]
            j = judge_scores(data, want)
            own, combined = lite_pred.copy(), lite_pred.copy()
            own[want] = j >= 0.5
            window = share_match()
            for i, s in sorted(zip(want, j, strict=True)):
                z = margin(card, data.lite[i], s, data.eta)
                yes = bool(s >= YES)
                combined[i] = (
                    window.decide(bool(lite_pred[i]), yes, z) if card.judge_weight else z >= 0
                )
            own_card = own_threshold("stand-in")
            forced, window = lite_pred.copy(), share_match()  # the window with no card's help
            for i, s in sorted(zip(want, j, strict=True)):
                forced[i] = window.decide(
                    bool(lite_pred[i]), bool(s >= YES), margin(own_card, data.lite[i], s, data.eta)
                )
            line[f"own verdict {share:.0%}"] = balanced_accuracy(own, y)
            line[f"combined {share:.0%}"] = balanced_accuracy(combined, y)
            line[f"window alone {share:.0%}"] = balanced_accuracy(forced, y)
        lines.append(line)
    print(table(lines, list(lines[0])))


def _rss_mb() -> tuple[float, float]:
    """This process's resident memory and its peak, in MB (Linux)."""
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    return tuple(int(fields[k].split()[0]) / 1024 for k in ("VmRSS", "VmHWM"))  # type: ignore[return-value]


def memory(args: argparse.Namespace) -> None:
    """Resident memory of a process that holds only the local judge: before, after the
    model loads, after one question of about 600 tokens (``--n-ctx``)."""
    from ragguard.judge.client import JudgeClient
    from ragguard.judge.prompts import SUPPORT_VERDICTS, support_messages

    config = JudgeConfig(
        backend="local", model=str(judge_model.model_path()), n_ctx=args.n_ctx, timeout_s=600
    )
    client = JudgeClient(config)
    before = _rss_mb()
    started = time.perf_counter()
    _ = client.client  # starts the server: the model loads
    loaded, load_s = _rss_mb(), time.perf_counter() - started
    passage = "The Eiffel Tower is in Paris. It was completed in 1889. " * 20
    answer = client.ask(
        support_messages("It was completed in 1889.", [passage], score=True),
        SUPPORT_VERDICTS,
        score=True,
    )
    asked = _rss_mb()
    print(
        f"n_ctx {args.n_ctx}: RSS {before[0]:.0f} MB before, {loaded[0]:.0f} MB loaded "
        f"({load_s:.1f} s), {asked[0]:.0f} MB after a {answer.input_tokens}-token question "
        f"(peak {asked[1]:.0f} MB); load average {os.getloadavg()[0]:.1f}"
    )


def prefix(args: argparse.Namespace) -> None:
    """Prompt tokens evaluated per judged span, before and after one nonce per answer, on
    the example traces with 3 or more objective spans (every objective span asked). Before:
    the base tree's prompts (``--base-prompts``, a copy of its ``ragguard/judge/prompts.py``:
    a nonce per question, in the system message's second paragraph) and its reasoned JSON
    verdict; after: this tree's score question, one nonce per answer."""
    import importlib.util

    from ragguard import Guard
    from ragguard.judge.cascade import Cascade
    from ragguard.judge.client import JudgeClient
    from ragguard.judge.prompts import SUPPORT_VERDICTS
    from ragguard.judge.questions import support_questions, with_shared_nonce
    from ragguard.schema import Trace

    base: Any = None
    if "before" in args.modes:
        spec = importlib.util.spec_from_file_location("base_prompts", args.base_prompts)
        assert spec is not None and spec.loader is not None
        base = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(base)
    model = args.model or str(judge_model.model_path())
    config = JudgeConfig(
        backend="local",
        model=model,
        threads=args.threads,
        timeout_s=600,
        retries=0,
        max_calls_per_minute=None,
        max_tokens_per_day=None,
        band=(0.0, 1.0),
    )
    rows = [json.loads(line) for line in Path(args.traces).read_text().splitlines()]
    traces = [Trace.model_validate(r) for r in rows]
    evaluations = Guard().evaluate_many(rows)
    cascade = Cascade(config, client=JudgeClient(config))
    answers: list[list[tuple[Any, Any]]] = []
    for trace, evaluation in zip(traces, evaluations, strict=True):
        spans = [s for s in evaluation.spans if s.kind == "objective"]
        if len(spans) >= 3:
            answers.append(list(zip(support_questions(config, trace, spans), spans, strict=True)))
    answers = answers[: args.answers]
    client = cascade.client
    for mode in args.modes:
        seconds, sent, evaluated = [], [], []
        for questions in answers:
            shared = with_shared_nonce([q for q, _ in questions])
            for question in shared:
                if mode == "before":
                    messages = base.support_messages(
                        question.claim, question.passages, question.context, question.language
                    )
                    started = time.perf_counter()
                    answer = client.ask(messages, SUPPORT_VERDICTS)
                else:
                    started = time.perf_counter()
                    answer = cascade.ask_support(question, score=True)
                seconds.append(time.perf_counter() - started)
                sent.append(answer.input_tokens)
                evaluated.append(answer.prompt_evaluated or 0)
        p50, p95 = np.percentile(seconds, [50, 95])
        print(
            f"{mode}: {len(seconds)} spans of {len(answers)} answers; prompt tokens per judged "
            f"span {np.mean(sent):.0f} sent, {np.mean(evaluated):.0f} evaluated; seconds "
            f"p50 {p50:.2f} p95 {p95:.2f}; load average {os.getloadavg()[0]:.1f}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    ask = commands.add_parser("judge", help="ask the local judge about a set's pairs (cached)")
    devsets.add_data_argument(ask)
    ask.add_argument("--set", choices=SETS, required=True)
    ask.add_argument("--pairs", type=int, default=300)
    ask.add_argument("--seed", type=int, default=0)
    ask.add_argument("--share", type=float, default=0.35, help="judge this share, nearest eta")
    ask.add_argument("--minutes", type=float, default=60.0)
    ask.add_argument("--threads", type=int, default=2)
    ask.add_argument("--cut", choices=evidence_window.CUTS, default="pooled")
    ask.add_argument("--prompt", choices=PROMPTS, default="rules")
    refit = commands.add_parser("fit", help="the combination card from the judged training pairs")
    devsets.add_data_argument(refit)
    refit.add_argument("--train-pairs", type=int, default=400)
    refit.add_argument("--seed", type=int, default=0)
    refit.add_argument("--write", action="store_true", help="write the shipped card")
    show = commands.add_parser("report", help="the table, from the cached judge scores")
    biased = commands.add_parser("standin", help="the cascade with the biased stand-in judge")
    for command in (show, biased):
        devsets.add_data_argument(command)
        command.add_argument("--pairs", type=int, default=300)
        command.add_argument("--seed", type=int, default=0)
    biased.add_argument("--bias", type=float, default=0.9)
    biased.add_argument("--train-pairs", type=int, default=400)
    biased.add_argument("--train-share", type=float, default=0.35)
    reuse = commands.add_parser("prefix", help="prompt tokens evaluated, before and after")
    reuse.add_argument("--traces", default="examples/traces.jsonl")
    reuse.add_argument("--base-prompts", help="the base tree's prompts.py (for before)")
    reuse.add_argument("--model", help="a GGUF (default: the pinned 1.5B)")
    reuse.add_argument("--answers", type=int, default=10)
    reuse.add_argument("--threads", type=int, default=2)
    reuse.add_argument(
        "--modes", nargs="+", choices=("before", "after"), default=["before", "after"]
    )
    rss = commands.add_parser("memory", help="resident memory of the local judge alone")
    rss.add_argument("--n-ctx", type=int, default=4096)
    args = parser.parse_args(argv)
    run = {"judge": judge, "fit": fit, "report": report, "standin": standin}
    run |= {"memory": memory, "prefix": prefix}
    run[args.command](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
