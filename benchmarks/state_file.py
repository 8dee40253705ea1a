"""Time to load a large calibration state file and record one verdict (issue 38, item 10).

    python benchmarks/state_file.py [--samples 80000 320000] [--max-samples 5000]

A state file holding more samples than ``max_samples`` (written by a process with a larger
setting, or planted) is loaded by a ``CalibrationStore``, which then records one verdict:
the update trims the sample to ``max_samples`` under the file's exclusive lock, so every
process sharing the file waits for it. Figures are wall seconds of load + one update.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import tempfile
import time
from pathlib import Path

from ragguard.calibration.state import CalibrationStore
from ragguard.config import CalibrationConfig

DIGEST = hashlib.sha256(b"claim").hexdigest()


def key(i: int) -> str:
    return f"t{i}#0#{DIGEST}"


def run(folder: Path, samples: int, max_samples: int) -> float:
    path = folder / f"state-{samples}.json"
    rows = [[key(i), (i % 1000) / 1000, i % 3 != 0] for i in range(samples)]
    pipeline = {"fingerprint": "f", "samples": rows, "fitted": None}
    path.write_text(json.dumps({"version": 2, "pipelines": {"qa": pipeline}}))
    path.chmod(0o600)
    config = CalibrationConfig(source="judge", state_file=path, max_samples=max_samples)
    started = time.perf_counter()
    store = CalibrationStore(
        config, pipeline="qa", fingerprint="f", default_threshold=0.5, default_band=(0.4, 0.6)
    )
    store.add([(key(samples), 0.5, True)])
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, nargs="+", default=[80_000, 320_000])
    parser.add_argument("--max-samples", type=int, default=5000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for samples in args.samples:
            seconds = run(Path(folder), samples, args.max_samples)
            print(f"{samples:>9} samples, max_samples {args.max_samples}: {seconds:.2f} s")


if __name__ == "__main__":
    main()
