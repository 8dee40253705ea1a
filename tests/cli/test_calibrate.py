"""``ragguard calibrate``: labelled traces in, a config that --config accepts out, with a
card; ``--show``; a stale calibration refused when the model changes."""

import json
import tomllib
from importlib import resources

import pytest

from ragguard import Config, Guard
from ragguard.cli import EXIT_OK, EXIT_SKIPPED, main
from ragguard.errors import ModelLoadError
from tests.support.calibration_fixtures import labelled_rows, write_jsonl


@pytest.fixture(scope="module")
def calibrated(tmp_path_factory):
    folder = tmp_path_factory.mktemp("calibrate")
    labelled = write_jsonl(folder / "labelled.jsonl", labelled_rows(120))
    with labelled.open("a") as handle:
        handle.write('{"trace_id": "bad", "query": "q", "response": "A.", "labels": [true]}\n')
    base = folder / "base.toml"
    base.write_text('[exporters]\npipeline = "support-bot"\n')
    out = folder / "calibrated.toml"
    code = main(["calibrate", str(labelled), "-o", str(out), "--config", str(base)])
    return folder, out, code


def test_it_writes_a_loadable_config_and_a_card(calibrated, capsys) -> None:
    _, out, code = calibrated
    assert code == EXIT_SKIPPED  # the bad last line was reported and skipped
    data = tomllib.loads(out.read_text())
    assert data["exporters"]["pipeline"] == "support-bot"  # the base config is kept
    config = Config.from_file(out)
    fitted = config.calibration.fitted
    assert config.calibration.source == "file" and fitted is not None
    assert fitted.n_labels == 120 and 0 < fitted.n_supported < 120
    assert fitted.band[0] <= fitted.threshold <= fitted.band[1]
    assert len(fitted.score_quantiles) == 41
    card = out.with_suffix(".md").read_text()
    assert "labelled spans: 120" in card and "balanced accuracy (5-fold CV)" in card
    before, after = fitted.balanced_accuracy
    assert f"{before:.3f}" in card and f"{after:.3f}" in card

    assert main(["calibrate", "--show", str(out)]) == EXIT_OK
    shown = capsys.readouterr().out
    assert f"threshold {fitted.threshold:.3f}" in shown and "on 120 labels" in shown


def test_the_fitted_threshold_and_band_are_in_force(calibrated, tmp_path) -> None:
    _, out, _ = calibrated
    config = Config.from_file(out)
    fitted = config.calibration.fitted
    trace = labelled_rows(1, seed=5)[0]
    trace.pop("labels")
    evaluation = Guard(out).evaluate(trace)
    assert evaluation.thresholds.support == fitted.threshold
    status = evaluation.calibration
    assert status.source == "file" and status.fitted and status.n_samples == 120
    span = evaluation.spans[0]
    assert span.supported == (span.support >= fitted.threshold)


def test_a_calibration_of_another_model_is_refused(calibrated, tmp_path) -> None:
    _, out, _ = calibrated
    head = json.loads(
        resources.files("ragguard.scoring.lite")
        .joinpath("bundled", "support_lite.json")
        .read_text()
    )
    head["threshold"] = 0.31  # another head: its scores mean something else
    (tmp_path / "other_head.json").write_text(json.dumps(head))
    data = tomllib.loads(out.read_text())
    config = Config.model_validate(
        {**data, "support": {"model": str(tmp_path / "other_head.json")}}
    )
    with pytest.raises(ModelLoadError, match="Re-run `ragguard calibrate`") as caught:
        Guard(config).evaluate({"trace_id": "t", "query": "q", "response": "A.", "items": []})
    assert caught.value.key == "calibration.fitted.fingerprint"


def test_bad_arguments_stop_before_any_work(tmp_path, capsys) -> None:
    labelled = write_jsonl(tmp_path / "l.jsonl", labelled_rows(3))
    assert main(["calibrate", str(labelled), "-o", str(tmp_path / "nowhere" / "c.toml")]) == 2
    assert "folder that does not exist" in capsys.readouterr().err
    assert main(["calibrate", str(labelled)]) == 2


def _nothing_labelled(rows: list[dict]) -> list[dict]:
    return [{**row, "labels": [None] * len(row["labels"])} for row in rows]


@pytest.mark.parametrize(
    "rows",
    [
        [{"trace_id": "bad", "query": "q", "response": "A.", "labels": [True]}] * 3,
        _nothing_labelled(labelled_rows(5)),
    ],
    ids=["every line skipped", "every label null"],
)
def test_nothing_to_fit_writes_no_calibration(tmp_path, capsys, rows) -> None:
    labelled = write_jsonl(tmp_path / "l.jsonl", rows)
    out = tmp_path / "c.toml"
    assert main(["calibrate", str(labelled), "-o", str(out)]) == 2
    assert "no labelled span" in capsys.readouterr().err
    assert not out.exists() and not out.with_suffix(".md").exists()


def test_lines_are_streamed_not_held(tmp_path, monkeypatch) -> None:
    """A labelled line is dropped once its batch is evaluated: at most a few batches are
    alive at once, whatever the file's length."""
    import gc
    import weakref

    from ragguard.calibration import collect, labels

    read = labels.read_labelled
    alive: list[weakref.ref] = []
    most = 0

    def reading(*args, **kwargs):
        for entry in read(*args, **kwargs):
            alive.append(weakref.ref(entry))
            yield entry

    original_add = collect.LabelledScores.add

    def add(self, labelled, evaluation):
        nonlocal most
        gc.collect()
        most = max(most, sum(ref() is not None for ref in alive))
        original_add(self, labelled, evaluation)

    monkeypatch.setattr(labels, "read_labelled", reading)
    monkeypatch.setattr(collect.LabelledScores, "add", add)
    labelled = write_jsonl(tmp_path / "l.jsonl", labelled_rows(200, seed=2))
    base = tmp_path / "base.toml"
    base.write_text("batch_size = 16\n")
    out = tmp_path / "c.toml"
    assert main(["calibrate", str(labelled), "-o", str(out), "-c", str(base)]) == EXIT_OK
    assert Config.from_file(out).calibration.fitted.n_labels == 200
    assert 0 < most <= 3 * 16
