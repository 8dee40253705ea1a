"""The review page's web server (Starlette on uvicorn): every path under the run's token.

- The token is the first path segment, compared in constant time; any other path is 404.
- Every response sends a strict Content-Security-Policy (scripts, styles, images and
  fetches from this server only; no inline script or style, no frames, no forms), nosniff,
  no referrer and no caching.
- A label POST must be JSON (a cross-site form cannot send it without a preflight, which
  is never answered), come from this server's own origin when the browser says where it
  comes from (``Origin``, ``Sec-Fetch-Site``), name a ``Host`` this server listens as, and
  fit ``MAX_BODY_BYTES``.
"""

from __future__ import annotations

import hmac
import json
from importlib.resources import files
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from ragguard.errors import MediaError, RagguardError
from ragguard.review.plot import reliability_svg
from ragguard.review.session import ReviewSession

MAX_BODY_BYTES = 16_384
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
PAGE_FILES = {
    "": ("index.html", "text/html; charset=utf-8"),
    "review.js": ("review.js", "text/javascript; charset=utf-8"),
    "review.css": ("review.css", "text/css; charset=utf-8"),
}


def _page_file(name: str) -> bytes:
    return files("ragguard.review").joinpath("page", name).read_bytes()


class Guarded(BaseHTTPMiddleware):
    """The token, the host and the origin checks, and the security headers."""

    def __init__(self, app: Any, token: str, hosts: frozenset[str]) -> None:
        super().__init__(app)
        self.token, self.hosts = token, hosts

    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        response = self._refusal(request) or await call_next(request)
        response.headers.update(HEADERS)
        return response

    def _refusal(self, request: Request) -> Response | None:
        first, _, _ = request.url.path.lstrip("/").partition("/")
        if not hmac.compare_digest(first.encode(), self.token.encode()):
            return PlainTextResponse("not found", 404)
        if request.headers.get("host", "") not in self.hosts:
            return PlainTextResponse("unknown host", 421)
        if request.method == "GET":
            return None
        origin = request.headers.get("origin")
        own = {f"http://{host}" for host in self.hosts}
        site = request.headers.get("sec-fetch-site")
        if (origin is not None and origin not in own) or site not in (None, "same-origin"):
            return PlainTextResponse("cross-origin request refused", 403)
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return PlainTextResponse("a label is JSON", 415)
        length = request.headers.get("content-length")
        if length is None or not length.isdigit() or int(length) > MAX_BODY_BYTES:
            return PlainTextResponse(f"a body of at most {MAX_BODY_BYTES} bytes", 413)
        return None


def _error(error: Exception, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": str(error)}, status)


def _record_label(session: ReviewSession, body: bytes) -> Response:
    """Record the label a POST's JSON body gives; the reviewer's state, or what was wrong."""
    try:
        data = json.loads(body)
        if not isinstance(data, dict):
            raise ValueError("a JSON object")
        reviewer = session.reviewer_name(data.get("reviewer"))
        note = data.get("note") or ""
        number = data.get("number")
        if not isinstance(note, str) or not isinstance(number, int):
            raise ValueError("number: an integer; note: a string")
        session.label(number, str(data.get("choice")), reviewer, note, str(data.get("hash")))
    except (ValueError, RagguardError) as error:
        return _error(error)
    return JSONResponse(session.state(reviewer))


def build_app(session: ReviewSession, token: str, hosts: frozenset[str]) -> Starlette:
    """The page, its files and its JSON endpoints over ``session``."""

    async def page(request: Request) -> Response:
        entry = PAGE_FILES.get(request.path_params.get("name", ""))
        if entry is None:
            return PlainTextResponse("not found", 404)
        return Response(_page_file(entry[0]), media_type=entry[1])

    async def state(request: Request) -> Response:
        try:
            reviewer = session.reviewer_name(request.query_params.get("reviewer"))
        except RagguardError as error:
            return _error(error)
        return JSONResponse(session.state(reviewer))

    async def card(request: Request) -> Response:
        try:
            reviewer = session.reviewer_name(request.query_params.get("reviewer"))
            return JSONResponse(session.card(int(request.path_params["number"]), reviewer))
        except RagguardError as error:
            return _error(error, 404)

    async def label(request: Request) -> Response:
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY_BYTES:
                return PlainTextResponse(f"a body of at most {MAX_BODY_BYTES} bytes", 413)
        return _record_label(session, body)

    async def summary(request: Request) -> Response:
        return JSONResponse(session.summary())

    async def plot(request: Request) -> Response:
        figures = session.summary()
        svg = reliability_svg(figures["reliability"], figures["threshold"])
        return Response(svg, media_type="image/svg+xml")

    async def media(request: Request) -> Response:
        try:
            raw, kind = session.image(
                int(request.path_params["number"]), int(request.path_params["item"])
            )
        except (MediaError, RagguardError) as error:
            return PlainTextResponse(str(error), 403)
        return Response(raw, media_type=kind)

    routes = [
        Route("/{token}/", page),
        Route("/{token}/static/{name}", page),
        Route("/{token}/api/state", state),
        Route("/{token}/api/card/{number:int}", card),
        Route("/{token}/api/label", label, methods=["POST"]),
        Route("/{token}/api/summary", summary),
        Route("/{token}/reliability.svg", plot),
        Route("/{token}/media/{number:int}/{item:int}", media),
    ]
    return Starlette(routes=routes, middleware=[Middleware(Guarded, token=token, hosts=hosts)])
