"""Time and room bounds for OTLP/HTTP connections that a hostile client cannot hold open.

A per-read timeout alone lets a client that sends one byte every few seconds keep a request
(and its thread and connection slot) open for ever, so every request also has deadlines
from its first byte: one for its head, one for the whole request. And a full connection
table is not left to clients that have not shown they may send: at the cap, a new
connection takes the place of the oldest one that is idle or still sending its head.
"""

from __future__ import annotations

import contextlib
import io
import socket
import threading
import time
from collections import OrderedDict
from typing import Any


class DeadlineReader(io.RawIOBase):
    """A socket's reading side where each read waits at most ``idle_s``, and no read goes
    past the current request's deadline (``TimeoutError``, as a socket timeout is)."""

    def __init__(self, sock: socket.socket, idle_s: float | None, head_s: float) -> None:
        self.sock = sock
        self.idle_s = idle_s
        self.head_s = head_s
        self.started: float | None = None
        """When the current request's first byte came (None: between requests)."""
        self.deadline: float | None = None

    def readable(self) -> bool:
        return True

    def next_request(self) -> None:
        """Between requests: the next one's clocks start at its first byte."""
        self.started = self.deadline = None

    def extend(self, seconds: float) -> None:
        """The head is in: the rest of the request may take until ``seconds`` after the
        first byte."""
        if self.started is not None:
            self.deadline = self.started + seconds

    def readinto(self, buffer: Any) -> int:
        wait = self.idle_s
        if self.deadline is not None:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("request deadline passed")
            wait = left if wait is None else min(wait, left)
        self.sock.settimeout(wait)
        count = self.sock.recv_into(buffer)
        if self.started is None and count:
            self.started = time.monotonic()
            self.deadline = self.started + self.head_s
        return count


class Preemptible:
    """The connections that may give up their slot to a new one: idle between requests or
    still in their request head, oldest first, keyed by the thread serving each."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: OrderedDict[int, socket.socket] = OrderedDict()

    def waiting(self, sock: socket.socket) -> None:
        """The calling thread's connection is idle or reading a head (preemptible)."""
        with self._lock:
            self._open[threading.get_ident()] = sock
            self._open.move_to_end(threading.get_ident())

    def working(self) -> None:
        """The calling thread's connection is inside an authorised request (kept)."""
        with self._lock:
            self._open.pop(threading.get_ident(), None)

    def preempt_oldest(self) -> bool:
        """Shut the oldest preemptible connection down (its thread then ends); whether
        there was one."""
        with self._lock:
            if not self._open:
                return False
            _, sock = self._open.popitem(last=False)
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
        return True
