"""Review labels in the labelled format: the last line per (hash, reviewer) counts, a hash
that is not its span's is refused, and ``calibrate`` counts a relabelled span once."""

import json
import tomllib

from ragguard.calibration.labels import read_labelled
from ragguard.errors import TraceValidationError
from ragguard.review import ReviewSession, build_queue, open_source
from tests.support.cli_process import run_ragguard
from tests.support.review_fixtures import LIVE_LOG, label_lines


def _session(tmp_path, reviewer="ana"):
    labels = str(tmp_path / "labels.jsonl")
    queue = build_queue(
        open_source(str(LIVE_LOG)), labels, size=5, design="random", seed=4, progress=False
    )
    return ReviewSession(queue, labels, reviewer)


def test_the_last_line_per_hash_and_reviewer_is_read_and_undo_labels_nothing(tmp_path):
    session = _session(tmp_path)
    first = session.queue.spans[0].hash
    second = session.queue.spans[1].hash
    session.label(0, "supported", "ana", "", first)
    session.label(0, "unsupported", "ana", "changed my mind", first)
    session.label(0, "supported", "bo", "", first)
    session.label(1, "supported", "ana", "", second)
    session.label(1, "undone", "ana", "", second)
    session.close()
    lines = label_lines(tmp_path / "labels.jsonl")
    assert [line["review"]["choice"] for line in lines] == [
        "supported",
        "unsupported",
        "supported",
        "supported",
        "undone",
    ]
    assert all(line["design"] == "random" and line["hash"].startswith("sha256:") for line in lines)
    assert all({"reviewer", "labelled_at", "review"} <= set(line) for line in lines)
    read = list(read_labelled(tmp_path / "labels.jsonl"))
    assert not [r for r in read if isinstance(r, TraceValidationError)]
    kept = {(r.reviewed.hash, r.reviewed.reviewer): r for r in read}
    assert len(read) == 3 and set(kept) == {(first, "ana"), (first, "bo"), (second, "ana")}
    index = kept[(first, "ana")].reviewed.span
    assert kept[(first, "ana")].labels[index] is False  # the changed mind, not the first label
    assert kept[(first, "bo")].labels[index] is True  # the other reviewer's label is kept
    assert all(label is None for label in kept[(second, "ana")].labels)  # undone


def test_a_label_moved_onto_other_text_is_refused(tmp_path):
    session = _session(tmp_path)
    session.label(0, "supported", "ana", "", session.queue.spans[0].hash)
    session.close()
    line = label_lines(tmp_path / "labels.jsonl")[0]
    line["items"][0]["text"] = "Some other passage."
    (tmp_path / "edited.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    [error] = list(read_labelled(tmp_path / "edited.jsonl"))
    assert isinstance(error, TraceValidationError) and error.field == "hash"


def test_calibrate_counts_a_relabelled_span_once(tmp_path):
    session = _session(tmp_path)
    key = session.queue.spans[0].hash
    for choice in ("unsupported", "supported", "unsupported", "supported"):
        session.label(0, choice, "ana", "", key)
    session.close()
    out = tmp_path / "calibrated.toml"
    done = run_ragguard("calibrate", str(tmp_path / "labels.jsonl"), "-o", str(out))
    assert done.returncode == 0, done.stderr
    fitted = tomllib.loads(out.read_text())["calibration"]["fitted"]
    assert fitted["n_labels"] == 1 and fitted["n_supported"] == 1


def test_the_calibration_card_counts_the_labels_of_each_design(tmp_path):
    random_session = _session(tmp_path)
    labelled = {span.hash for span in random_session.queue.spans[:3]}
    for index, span in enumerate(random_session.queue.spans[:3]):
        random_session.label(
            index, "supported" if index % 2 else "unsupported", "ana", "", span.hash
        )
    random_session.close()
    labels = str(tmp_path / "labels.jsonl")
    flagged = build_queue(
        open_source(str(LIVE_LOG)), labels, size=10, design="flagged", seed=4, progress=False
    )
    flagged_session = ReviewSession(flagged, labels, "ana")
    fresh = [(i, s) for i, s in enumerate(flagged.spans) if s.hash not in labelled][:2]
    for index, span in fresh:
        flagged_session.label(index, "unsupported", "ana", "", span.hash)
    flagged_session.close()
    assert [line["design"] for line in label_lines(tmp_path / "labels.jsonl")] == [
        *["random"] * 3,
        *["flagged"] * 2,
    ]
    out = tmp_path / "calibrated.toml"
    done = run_ragguard("calibrate", labels, "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert "- label designs: 2 flagged, 3 random" in out.with_suffix(".md").read_text()
