"""A stand-in OpenAI-compatible judge on loopback whose accuracy the caller sets (the
judge-tier tests and ``benchmarks/judge_overrule.py`` share it).

It knows the gold label of every claim it may be asked about, finds which claim a request
is about by looking for the claim's text in the last user message, and answers the gold
verdict, flipped with probability ``flip`` (decided by a seeded hash of the claim, so
independently per span and the same on every run). With ``bias`` set it is the biased
judge instead: it answers "supported" with that probability whatever the truth. It speaks
the chat-completions shape that ragguard's judge client reads, with token counts: the
reasoned JSON verdict, or, for the score question (a request asking for ``logprobs``), one
word with the first token's probabilities, P(yes) on the side of its verdict, by a seeded
confidence (``logprobs=False``: the word alone, as from an endpoint without them).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class StandInJudge:
    gold: Mapping[str, bool]
    """Claim text -> supported."""
    flip: float = 0.2
    seed: int = 0
    calls: list[str] = field(default_factory=list)
    """The claim of every request, in order."""
    support_calls: list[str] = field(default_factory=list)
    """The claim of every request that asks whether the claim is supported (not whether an
    answer addresses its question), in order."""
    instructions: list[str] = field(default_factory=list)
    """The system message of every request, in order."""
    bias: float | None = None
    """The biased judge: "supported" with this probability, whatever the truth."""
    logprobs: bool = True
    """Return token probabilities to the score question (False: an endpoint without)."""

    def draw(self, claim: str, purpose: str = "") -> float:
        """A seeded uniform number in [0, 1) per claim (and purpose)."""
        digest = hashlib.sha256(f"{self.seed}\0{purpose}{claim}".encode()).digest()
        return int.from_bytes(digest[:8], "big") / 2**64

    def flipped(self, claim: str) -> bool:
        return self.draw(claim) < self.flip

    def claim_of(self, prompt: str) -> str | None:
        matches = [claim for claim in self.gold if claim in prompt]
        return max(matches, key=len) if matches else None

    def verdict(self, prompt: str) -> bool | None:
        claim = self.claim_of(prompt)
        if claim is None:
            return None
        self.calls.append(claim)
        if 'name="sentence"' in prompt:
            self.support_calls.append(claim)
        if self.bias is not None:
            return self.draw(claim, "bias") < self.bias
        return self.gold[claim] != self.flipped(claim)

    def score(self, claim: str, verdict: bool) -> float:
        """P(yes) on the side of ``verdict``, at a seeded confidence."""
        confidence = 0.5 * (0.02 + 0.96 * self.draw(claim, "confidence"))
        return 0.5 + confidence if verdict else 0.5 - confidence


def _choice(judge: StandInJudge, body: dict, verdict: bool | None) -> dict:
    """The reply's one choice: a JSON verdict, or one word for the score question."""
    if not body.get("logprobs"):
        word = "unknown" if verdict is None else "supported" if verdict else "not_supported"
        content = json.dumps({"reasoning": "stand-in judge", "verdict": word})
        return {"index": 0, "message": {"role": "assistant", "content": content}}
    word = "Maybe" if verdict is None else "Yes" if verdict else "No"
    choice: dict = {"index": 0, "message": {"role": "assistant", "content": word}}
    claim = judge.claim_of(body["messages"][-1]["content"])
    if judge.logprobs and verdict is not None and claim is not None:
        p = judge.score(claim, verdict)
        top = [
            {"token": "Yes", "logprob": math.log(p)},
            {"token": "No", "logprob": math.log(1 - p)},
        ]
        top.sort(key=lambda t: -t["logprob"])
        choice["logprobs"] = {"content": [{**top[0], "top_logprobs": top}]}
    return choice


@dataclass
class Running:
    judge: StandInJudge
    port: int

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


def _handler(judge: StandInJudge) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            prompt = body["messages"][-1]["content"]
            judge.instructions.append(body["messages"][0]["content"])
            verdict = judge.verdict(prompt)
            reply = {
                "id": "standin",
                "object": "chat.completion",
                "created": 0,
                "model": body.get("model", "standin"),
                "choices": [{**_choice(judge, body, verdict), "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
            }
            data = json.dumps(reply).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


@contextlib.contextmanager
def standin_judge(
    gold: Mapping[str, bool],
    flip: float = 0.2,
    seed: int = 0,
    *,
    bias: float | None = None,
    logprobs: bool = True,
) -> Iterator[Running]:
    """Serve a stand-in judge on a free loopback port for the block's duration."""
    judge = StandInJudge(dict(gold), flip, seed, bias=bias, logprobs=logprobs)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(judge))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Running(judge, server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
