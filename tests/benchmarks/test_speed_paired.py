"""``benchmarks/speed_paired.py``, run as a user runs it: two checkouts' processes take the
speed benchmark's requests in turn, and its start-up errors name what is wrong."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "speed_paired.py"
ROWS = [
    ("The Orlen Bridge opened in 1931.", "The Orlen Bridge in Riga opened to traffic in 1931."),
    ("Lake Vorna is in Latvia.", "Lake Vorna is the largest lake in Latvia, near Riga."),
    ("Mira Chandra designed the tower.", "The tower was designed by Mira Chandra in 1902."),
    ("The museum has 40 rooms.", "The Brask Museum has forty rooms on three floors."),
    ("Tessel Hall seats 900 people.", "Tessel Hall, built in 1960, seats 1,200 people."),
]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600
    )


def _data(tmp_path: Path) -> Path:
    folder = tmp_path / "factcheck-gpt"
    folder.mkdir()
    lines = [
        json.dumps({"claim": c, "evidence": e, "stance": "completely-support"}) for c, e in ROWS
    ]
    (folder / "subtask3_claim_evidence_stance.jsonl").write_text("\n".join(lines) + "\n")
    return tmp_path


def test_two_checkouts_take_the_requests_in_turn(tmp_path: Path) -> None:
    done = _run(
        "--data", str(_data(tmp_path)), "--rounds", "2", "--requests", "2",
        f"before={ROOT}", f"after={ROOT}",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines[:2]] == ["round 1 p50 ms", "round 2 p50 ms"]
    assert "before" in lines[0] and "after" in lines[0]
    ratio = next(line for line in lines if line.startswith("after / before"))
    assert float(ratio.split("p50 ratio ")[1].split(",")[0]) > 0


def test_one_version_or_a_folder_without_ragguard_is_refused(tmp_path: Path) -> None:
    alone = _run("--data", str(tmp_path), f"only={ROOT}")
    assert alone.returncode == 2
    assert "two versions or more" in alone.stderr
    stranger = _run("--data", str(tmp_path), f"a={ROOT}", f"b={tmp_path}")
    assert stranger.returncode == 2
    assert "expected NAME=CHECKOUT" in stranger.stderr
