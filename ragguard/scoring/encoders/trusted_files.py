"""Files ragguard builds once and loads later (the int8 model), kept where no other user can
change them, and checked before they are loaded.

A model file decides every score, so a file planted by another user on the machine would
silently decide the verdicts. The rules follow OpenSSH's ``StrictModes``:

- a folder is used only when it, and every folder above it, is owned by the current user (or
  root) and writable by no one else; a world-writable folder above it counts only with the
  sticky bit (``/tmp``), which stops others from renaming or deleting our entries;
- a file (or a symlink's target) is read only when it is a regular file owned by the current
  user and writable by no one else;
- each built file gets a ``.sha256`` record beside it, written by the builder; a file whose
  bytes do not match its record is not loaded (the caller builds it again).

The fallback when the user's cache cannot be used is ``ragguard-<uid>`` in the system's
temporary folder, created 0700 and checked the same way; when even that is taken (another
user made it first), a fresh private folder from ``tempfile.mkdtemp``, for this process only.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import stat
import tempfile
from pathlib import Path

logger = logging.getLogger(__name__)

_OTHERS_WRITE = stat.S_IWGRP | stat.S_IWOTH


def current_uid() -> int:
    """The effective user: the owner every trusted file must have."""
    return os.geteuid() if hasattr(os, "geteuid") else -1


def _private(info: os.stat_result) -> bool:
    """Owned by the current user and writable by no one else."""
    return info.st_uid == current_uid() and not info.st_mode & _OTHERS_WRITE


def trusted_folder(folder: Path) -> bool:
    """Whether ``folder`` (symlinks followed) and every folder above it are safe to read from."""
    if os.name != "posix":
        return folder.is_dir()
    try:
        real = folder.resolve(strict=True)
        info = real.stat()
        if not stat.S_ISDIR(info.st_mode) or not _private(info):
            return False
        for parent in real.parents:
            above = parent.stat()
            if above.st_uid not in (0, current_uid()):
                return False
            if above.st_mode & _OTHERS_WRITE and not above.st_mode & stat.S_ISVTX:
                return False
    except (OSError, RuntimeError):
        return False
    return True


def private_folder(folder: Path) -> Path | None:
    """``folder``, created 0700 when missing, when it is trusted; else None."""
    with contextlib.suppress(OSError):
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder if trusted_folder(folder) else None


def private_temp_folder() -> Path:
    """The per-user fallback, ``ragguard-<uid>`` in the temporary folder; a fresh private
    folder when someone else holds that name."""
    shared = Path(tempfile.gettempdir()) / f"ragguard-{current_uid()}"
    if private_folder(shared) is not None:
        return shared
    logger.warning("ragguard: %s is not private to this user; using a fresh folder", shared)
    return Path(tempfile.mkdtemp(prefix="ragguard-"))


def record_path(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def read_private(path: Path) -> bytes | None:
    """The bytes of ``path`` (a symlink's target) when it is a private regular file."""
    try:
        with open(path, "rb") as handle:
            info = os.fstat(handle.fileno())  # the file actually opened, not a name
            if not stat.S_ISREG(info.st_mode) or not _private(info):
                logger.warning("ragguard: ignoring %s: not owned by this user alone", path)
                return None
            return handle.read()
    except OSError:
        return None


def read_verified(path: Path) -> bytes | None:
    """The bytes of a built file when it, its record and its folder are private and the bytes
    match the record; None otherwise (missing, planted, changed or half-written)."""
    if not trusted_folder(path.parent):
        return None
    data, record = read_private(path), read_private(record_path(path))
    if data is None or record is None:
        return None
    if hashlib.sha256(data).hexdigest() != record.decode("ascii", "replace").strip():
        logger.warning("ragguard: %s does not match its recorded sha256; building it again", path)
        return None
    return data


def _write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically, as a new 0600 file (replacing a symlink there)."""
    handle, partial = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(partial, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(partial)
        raise


def write_recorded(path: Path, data: bytes) -> None:
    """Store a built file with its sha256 record."""
    _write_private(path, data)
    _write_private(record_path(path), hashlib.sha256(data).hexdigest().encode("ascii") + b"\n")
