"""What ragguard reads of a GGUF file itself, before llama.cpp sees it: the header, so that a
model that cannot load says why (missing, not a GGUF, truncated) instead of llama.cpp's
one "Failed to init server", and the vocabulary's special tokens, which passages must not
smuggle into the local judge's prompt (llama.cpp parses special-token text in a prompt).

The layout is GGUF v2/v3 (ggml's ``docs/gguf.md``): magic, version, tensor and key counts,
typed key/value metadata, tensor descriptions, then the aligned tensor data."""

from __future__ import annotations

import mmap
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragguard.errors import ModelLoadError

MAGIC = b"GGUF"
SPECIAL_TOKEN_TYPES = frozenset({3, 4})
"""``tokenizer.ggml.token_type`` values of tokens a prompt must not contain: CONTROL (3) and
USER_DEFINED (4); NORMAL, UNKNOWN, UNUSED and BYTE tokens are ordinary text."""

_SCALARS = {
    0: "B",
    1: "b",
    2: "H",
    3: "h",
    4: "I",
    5: "i",
    6: "f",
    7: "?",
    10: "Q",
    11: "q",
    12: "d",
}
_STRING, _ARRAY = 8, 9
_KEPT = ("general.alignment", "tokenizer.ggml.tokens", "tokenizer.ggml.token_type")
_BLOCKS = {  # ggml type: (bytes per block, values per block), for the tensor data's end
    0: (4, 1), 1: (2, 1), 2: (18, 32), 3: (20, 32), 6: (22, 32), 7: (24, 32), 8: (34, 32),
    9: (36, 32), 10: (84, 256), 11: (110, 256), 12: (144, 256), 13: (176, 256),
    14: (210, 256), 15: (292, 256), 24: (1, 1), 25: (2, 1), 26: (4, 1), 27: (8, 1),
    28: (8, 1), 30: (2, 1),
}  # fmt: skip


class _Truncated(Exception):
    pass


@dataclass(frozen=True)
class GgufHeader:
    """The metadata ragguard uses and where the tensor data must end."""

    version: int
    metadata: dict[str, object]
    data_end: int
    size: int


class _Reader:
    def __init__(self, data: mmap.mmap | bytes) -> None:
        self.data, self.at = data, 0

    def take(self, fmt: str) -> Any:
        width = struct.calcsize("<" + fmt)
        if self.at + width > len(self.data):
            raise _Truncated
        (value,) = struct.unpack_from("<" + fmt, self.data, self.at)
        self.at += width
        return value

    def string(self) -> str:
        length = int(self.take("Q"))
        if self.at + length > len(self.data):
            raise _Truncated
        text = bytes(self.data[self.at : self.at + length]).decode("utf-8", "replace")
        self.at += length
        return text

    def value(self, kind: int) -> object:
        if kind == _STRING:
            return self.string()
        if kind == _ARRAY:
            inner, count = int(self.take("I")), int(self.take("Q"))
            return [self.value(inner) for _ in range(count)]
        if kind not in _SCALARS:
            raise ValueError(f"unknown metadata type {kind}")
        return self.take(_SCALARS[kind])


def read_header(path: Path) -> GgufHeader:
    """``path``'s header; ModelLoadError naming the cause when it is missing, not a GGUF file
    or cut short (its metadata, or the tensor data the metadata describes, runs past its end)."""
    if not path.is_file():
        raise ModelLoadError(f"judge.model: no GGUF file at {path}")
    with path.open("rb") as file:
        if file.read(4) != MAGIC:
            raise ModelLoadError(
                f"judge.model {path}: not a GGUF file (it does not start with GGUF)"
            )
        with mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
            try:
                return _parse(_Reader(data), len(data))
            except _Truncated:
                message = f"judge.model {path}: truncated ({len(data)} bytes; its header is cut)"
            except ValueError as error:
                message = f"judge.model {path}: not a GGUF file llama.cpp reads ({error})"
    raise ModelLoadError(message)


def _parse(reader: _Reader, size: int) -> GgufHeader:
    reader.at = 4
    version = int(reader.take("I"))
    if version not in (2, 3):
        raise ValueError(f"GGUF version {version}")
    tensors, keys = int(reader.take("Q")), int(reader.take("Q"))
    metadata: dict[str, object] = {}
    for _ in range(keys):
        key, kind = reader.string(), int(reader.take("I"))
        value = reader.value(kind)
        if key in _KEPT:
            metadata[key] = value
    end = 0
    for _ in range(tensors):
        reader.string()
        dims = [int(reader.take("Q")) for _ in range(int(reader.take("I")))]
        kind, offset = int(reader.take("I")), int(reader.take("Q"))
        count = 1
        for dim in dims:
            count *= dim
        block_bytes, block_values = _BLOCKS.get(kind, (0, 1))
        end = max(end, offset + count * block_bytes // block_values)
    aligned = metadata.get("general.alignment", 32)
    alignment = aligned if isinstance(aligned, int) and aligned > 0 else 32
    start = -(-reader.at // alignment) * alignment
    return GgufHeader(version, metadata, start + end, size)


def check_model(path: Path) -> GgufHeader:
    """``read_header``, and ModelLoadError when the tensor data ends past the file's end."""
    header = read_header(path)
    if header.data_end > header.size:
        raise ModelLoadError(
            f"judge.model {path}: truncated ({header.size} bytes; its tensors need "
            f"{header.data_end})"
        )
    return header


def special_tokens(header: GgufHeader) -> tuple[str, ...]:
    """The vocabulary's CONTROL and USER_DEFINED tokens of two characters or more, longest
    first (a one-character token cannot be broken, and no template uses one)."""
    tokens = header.metadata.get("tokenizer.ggml.tokens")
    kinds = header.metadata.get("tokenizer.ggml.token_type")
    if not isinstance(tokens, list) or not isinstance(kinds, list):
        return ()
    found = {
        str(token)
        for token, kind in zip(tokens, kinds, strict=False)
        if kind in SPECIAL_TOKEN_TYPES and len(str(token)) >= 2
    }
    return tuple(sorted(found, key=lambda token: (-len(token), token)))
