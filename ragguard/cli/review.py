"""``ragguard review``: label a sample of ragguard's verdicts on a local page."""

from __future__ import annotations

import argparse
import getpass
import sys
import webbrowser
from typing import Any

from ragguard.cli._common import EXIT_OK
from ragguard.errors import RagguardError


def add_to(commands: Any) -> None:
    review = commands.add_parser(
        "review",
        help="label a sample of ragguard's verdicts on a local web page",
        description="Draw a sample of claims from a trace log (or an evaluations file with "
        "--traces, or a labels file to continue) and serve a local page where people label "
        "each claim; labels are appended to --labels as they are made, in the format "
        "'ragguard calibrate' reads. --summary LABELS prints what the labels say.",
    )
    review.add_argument("source", nargs="?", help="trace log, evaluations file or labels file")
    review.add_argument("--traces", help="the traces file an evaluations file came from")
    review.add_argument("-o", "--labels", default="labels.jsonl", help="labels file to append to")
    review.add_argument("--sample", type=int, default=200, help="spans to draw (default 200)")
    review.add_argument(
        "--flagged", action="store_true", help="flagged spans first (triage; no rate estimates)"
    )
    review.add_argument("--seed", type=int, help="the sample's seed (default: recorded or random)")
    review.add_argument("--reviewer", help="your name on the labels (default: your user name)")
    review.add_argument("-c", "--config", help="config whose [media] policy shows images")
    review.add_argument("--host", default="127.0.0.1", help="address to listen on (loopback)")
    review.add_argument("--port", type=int, default=8765, help="port (0: any free one)")
    review.add_argument("--token-file", help="the token to use (required off loopback)")
    review.add_argument("--open", action="store_true", help="open the page in a browser")
    review.add_argument("--summary", metavar="LABELS", help="print what a labels file says")
    review.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.summary:
        return _summary(args.summary)
    if not args.source:
        raise RagguardError("review needs SOURCE (or --summary LABELS)")
    if args.sample < 1:
        raise RagguardError("--sample must be at least 1")
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise RagguardError(
            "ragguard review needs the review extra: pip install 'ragguard-eval[review]'"
        ) from None
    from ragguard.config import Config
    from ragguard.review import (
        Design,
        ReviewSession,
        bind,
        build_queue,
        open_source,
        read_token,
        serve,
    )

    token = read_token(args.token_file, args.host)
    media = Config.coerce(args.config).media
    source = open_source(args.source, args.traces)
    labels = args.source if source.kind == "labels" else args.labels
    bound = bind(args.host, args.port, token)
    design: Design = "flagged" if args.flagged else "random"
    queue = build_queue(source, labels, size=args.sample, design=design, seed=args.seed)
    reviewer = args.reviewer or getpass.getuser()
    session = ReviewSession(queue, labels, reviewer, media)
    print(f"review: labels go to {labels}; open {bound.url}", flush=True)
    if args.open:
        webbrowser.open(bound.url)
    serve(session, bound)
    return EXIT_OK


def _summary(path: str) -> int:
    from ragguard.review import current_labels, render_text, summarize

    labels = list(current_labels(path).values())
    if not labels:
        raise RagguardError(f"{path}: no review-page labels")
    print(render_text(summarize(labels, labels_path=path)))
    sys.stdout.flush()
    return EXIT_OK
