"""Model loading without transformers' progress bars.

transformers (5.x) draws a "Loading weights" bar for every model it loads: on every
``ragguard`` command, interleaved with ragguard's own bar, and in the application's logs at
every start of the live worker. ragguard's loading code runs inside ``quiet_loading``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def quiet_loading() -> Iterator[None]:
    """No transformers progress bar while the block runs (download bars of the Hugging Face
    hub stay as they were: a first download is worth watching); the setting is restored."""
    from huggingface_hub.utils.tqdm import (
        are_progress_bars_disabled,
        disable_progress_bars,
        enable_progress_bars,
    )
    from transformers.utils import logging

    if not logging.is_progress_bar_enabled():
        yield
        return
    hub_quiet = are_progress_bars_disabled()
    logging.disable_progress_bar()  # the hub's bars too
    if not hub_quiet:
        enable_progress_bars()
    try:
        yield
    finally:
        logging.enable_progress_bar()  # the hub's bars too
        if hub_quiet:
            disable_progress_bars()
