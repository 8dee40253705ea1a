"""A stand-in OpenAI-compatible judge on loopback whose accuracy the test sets.

It knows the gold label of every claim it may be asked about, finds which claim a request
is about by looking for the claim's text in the last user message, and answers the gold
verdict, flipped with probability ``flip`` (decided by a seeded hash of the claim, so
independently per span and the same on every run). It speaks the chat-completions shape
that ragguard's judge client reads, with token counts.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
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
    instructions: list[str] = field(default_factory=list)
    """The system message of every request, in order."""

    def flipped(self, claim: str) -> bool:
        digest = hashlib.sha256(f"{self.seed}\0{claim}".encode()).digest()
        return int.from_bytes(digest[:8], "big") / 2**64 < self.flip

    def verdict(self, prompt: str) -> bool | None:
        matches = [claim for claim in self.gold if claim in prompt]
        if not matches:
            return None
        claim = max(matches, key=len)
        self.calls.append(claim)
        return self.gold[claim] != self.flipped(claim)


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
            word = "unknown" if verdict is None else "supported" if verdict else "not_supported"
            content = json.dumps({"reasoning": "stand-in judge", "verdict": word})
            reply = {
                "id": "standin",
                "object": "chat.completion",
                "created": 0,
                "model": body.get("model", "standin"),
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": content},
                        "finish_reason": "stop",
                    }
                ],
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
def standin_judge(gold: Mapping[str, bool], flip: float = 0.2, seed: int = 0) -> Iterator[Running]:
    """Serve a stand-in judge on a free loopback port for the block's duration."""
    judge = StandInJudge(dict(gold), flip, seed)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(judge))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Running(judge, server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
