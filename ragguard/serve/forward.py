"""``forward_otlp``: every received request, unchanged, to another OTLP/HTTP receiver
(Phoenix, a Collector), from one background thread behind a bounded queue, so a slow or
absent downstream never holds up a client. Failures and overflow are counted."""

from __future__ import annotations

import logging
import threading
from collections import deque

from ragguard.exporters.outbound import post

logger = logging.getLogger(__name__)


class Forwarder:
    def __init__(self, url: str, queue_size: int, timeout_s: float = 10.0) -> None:
        self.url = url
        self.queue_size = queue_size
        self.timeout_s = timeout_s
        self.errors = 0
        self.sent = 0
        self._queue: deque[tuple[bytes, dict[str, str]]] = deque()
        self._ready = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="ragguard-serve-forward")
        self._thread.daemon = True
        self._thread.start()

    def submit(self, body: bytes, content_type: str, encoding: str | None) -> None:
        headers = {"Content-Type": content_type}
        if encoding:
            headers["Content-Encoding"] = encoding
        with self._ready:
            if len(self._queue) >= self.queue_size or self._closed:
                self.errors += 1
                return
            self._queue.append((body, headers))
            self._ready.notify()

    def _run(self) -> None:
        while True:
            with self._ready:
                while not self._queue and not self._closed:
                    self._ready.wait()
                if not self._queue:
                    return
                body, headers = self._queue.popleft()
            try:
                post(self.url, body, headers, self.timeout_s)
                self.sent += 1
            except OSError as error:
                self.errors += 1
                if self.errors == 1:
                    logger.warning("ragguard serve: forwarding to %s failed: %s", self.url, error)

    def close(self, timeout: float) -> None:
        """Send what is queued within ``timeout`` seconds; the rest is counted as errors."""
        with self._ready:
            self._closed = True
            self._ready.notify_all()
        self._thread.join(timeout)
        with self._ready:
            self.errors += len(self._queue)
            self._queue.clear()
