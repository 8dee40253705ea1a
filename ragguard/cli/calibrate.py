"""``ragguard calibrate``: fit the support threshold and the judge band to your labels."""

from __future__ import annotations

import argparse
import sys
from collections import deque
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tqdm.auto import tqdm

from ragguard.cli._common import (
    EXIT_OK,
    EXIT_SKIPPED,
    refuse_overwriting_input,
    replaced_on_success,
)
from ragguard.errors import RagguardError

if TYPE_CHECKING:
    from ragguard.calibration.collect import LabelledScores
    from ragguard.evaluation.guard import Guard
    from ragguard.schema import Trace


def add_to(commands: Any) -> None:
    calibrate = commands.add_parser(
        "calibrate",
        help="fit the support threshold and judge band to labelled traces",
        description="Evaluate labelled traces (each a trace with response_spans plus a "
        "parallel 'labels' list of true/false/null) with the lite tier, fit the support "
        "threshold (shrunk toward the default, kept only if it beats it under "
        "cross-validation) and the judge band around it, and write a config that --config "
        "accepts everywhere, with a calibration card beside it.",
    )
    calibrate.add_argument("labelled", nargs="?", help="labelled JSONL file")
    calibrate.add_argument("-o", "--output", "--out", dest="output", help="config TOML to write")
    calibrate.add_argument("-c", "--config", help="base config (TOML or JSON)")
    calibrate.add_argument(
        "--band-share", type=float, default=None, help="share of spans in the judge band"
    )
    calibrate.add_argument(
        "--judge",
        action="store_true",
        help="also ask the configured judge about the labelled spans in its band and refit "
        "its combination card ([judge] combination) on them",
    )
    calibrate.add_argument("--show", metavar="CONFIG", help="print a config's calibration")
    calibrate.set_defaults(run=run)


def _show(path: str) -> int:
    from ragguard.calibration.card import describe
    from ragguard.config import Config

    calibration = Config.from_file(path).calibration
    print(f"{path}: calibration {describe(calibration.fitted, calibration.source)}")
    return EXIT_OK


def _config_dict(base: Any) -> dict[str, Any]:
    """The base config as TOML-ready data: every value set, paths resolved."""
    return base.model_dump(mode="json", exclude_defaults=True, exclude_none=True)


def _lines(path: str) -> int:
    """Newlines in ``path``, counted in blocks: the progress bar's total."""
    count = 0
    with open(path, "rb") as handle:
        while block := handle.read(1 << 20):
            count += block.count(b"\n")
    return count


def _collect(guard: Guard, path: str, max_line_bytes: int) -> tuple[LabelledScores, int]:
    """Each labelled line's scores, streamed: a line is held only until its batch is
    evaluated, so memory stays bounded however long the file (a few numbers per labelled
    span are kept). Returns the scores and the number of lines skipped."""
    from ragguard.calibration.collect import LabelledScores
    from ragguard.calibration.labels import LabelledTrace, read_labelled
    from ragguard.schema import Evaluation

    collected = LabelledScores()
    pending: deque[LabelledTrace] = deque()
    skipped = 0

    def traces() -> Iterator[Trace]:
        nonlocal skipped
        for entry in read_labelled(path, max_line_bytes=max_line_bytes):
            if isinstance(entry, RagguardError):
                skipped += 1
                print(f"skipped {entry}", file=sys.stderr)
            else:
                pending.append(entry)
                yield entry.trace

    bar = tqdm(total=_lines(path), unit="line", desc="calibrate", disable=None)
    for outcome in guard.evaluate_stream(traces()):
        row = pending.popleft()
        if isinstance(outcome, Evaluation):
            collected.add(row, outcome)
        else:
            skipped += 1
            print(f"skipped line {row.line}: {outcome}", file=sys.stderr)
        bar.n = row.line or bar.n
        bar.update(0)
    bar.close()
    return collected, skipped


def _refit_judge(
    guard: Guard, collected: LabelledScores, eta: float
) -> tuple[dict[str, Any], str] | None:
    """The judge's combination card refitted on the labelled spans it scored (the same
    cross-validation, intervals and "not shown better" wording as the threshold's card),
    as config data and Markdown; None when it scored none."""
    from ragguard.calibration.combine import fit_combination, render

    if not collected.judged:
        print("calibrate --judge: the judge scored no labelled span; no card", file=sys.stderr)
        return None
    lite, scores, labels = zip(*collected.judged, strict=True)
    cascade = guard.models.judge
    model = cascade.client.model_name if cascade is not None else guard.config.judge.model
    fitted = fit_combination(
        lite,
        scores,
        labels,
        eta,
        model=model,
        source=f"calibrate --judge: {len(labels)} labelled spans the judge scored",
        judge_threshold=guard.config.judge.score_threshold,
    )
    return fitted.card.model_dump(mode="json"), render(fitted)


def run(args: argparse.Namespace) -> int:
    if args.show:
        return _show(args.show)
    if not args.labelled or not args.output:
        raise RagguardError("calibrate needs LABELLED.jsonl and -o OUT.toml (or --show CONFIG)")
    import tomli_w

    from ragguard.calibration.card import render_card
    from ragguard.calibration.fingerprint import model_fingerprint
    from ragguard.calibration.fit import calibrate
    from ragguard.config import Config, FittedCalibration
    from ragguard.evaluation.guard import Guard

    output = Path(args.output)
    refuse_overwriting_input([args.labelled], args.output)
    base = Config.coerce(args.config)
    band_share = base.calibration.band_share if args.band_share is None else args.band_share
    if args.judge and base.judge.backend == "none":
        raise RagguardError("calibrate --judge needs a [judge] backend in --config")
    off = {"source": "off", "fitted": None}
    judge = base.judge.model_copy(update={} if args.judge else {"backend": "none"})
    lite = base.model_copy(
        update={"calibration": base.calibration.model_copy(update=off), "judge": judge}
    )
    guard = Guard(lite)
    collected, skipped = _collect(guard, args.labelled, base.limits.max_line_bytes)
    if not collected.labels and not collected.kept:
        raise RagguardError(
            f"calibrate: no labelled span in {args.labelled} ({skipped} lines skipped, every "
            "other label null): nothing to fit, so no calibration was written"
        )
    default = guard.models.support_scorer.threshold
    fit = calibrate(
        collected.scores,
        collected.labels,
        default,
        band_share=band_share,
        all_scores=collected.all_scores,
        kept=collected.kept,
        default_band=base.judge.band,
    )
    answer_fit = None
    if collected.answer_labels:
        answer_fit = calibrate(
            collected.answer_scores,
            collected.answer_labels,
            guard.models.answer_scorer.threshold,
            band_share=band_share,
            all_scores=collected.all_answer_scores,
        )
    fingerprint = model_fingerprint(lite)
    fitted = FittedCalibration(
        source="file",
        threshold=fit.threshold,
        band=fit.band,
        n_labels=fit.n_labels,
        n_supported=fit.n_supported,
        fingerprint=fingerprint,
        fitted_at=datetime.now(UTC).isoformat(timespec="seconds"),
        balanced_accuracy=(fit.cv_default, fit.cv_fitted),
        kept_default=fit.kept_default,
        score_quantiles=fit.score_quantiles,
        answer_relevance_threshold=None if answer_fit is None else answer_fit.threshold,
        answer_relevance_band=None if answer_fit is None else answer_fit.band,
        answer_relevance_labels=0 if answer_fit is None else answer_fit.n_labels,
    )
    data = _config_dict(base)
    combined = _refit_judge(guard, collected, fit.threshold) if args.judge else None
    if combined is not None:
        data["judge"] = {**data.get("judge", {}), "combination": combined[0]}
    data["calibration"] = {
        **data.get("calibration", {}),
        "source": "file",
        "band_share": band_share,
        "fitted": fitted.model_dump(mode="json", exclude_none=True),
    }
    Config.model_validate(data)  # what is written must load
    with replaced_on_success(output) as out:
        out.write(f"# written by ragguard calibrate from {Path(args.labelled).name}\n")
        out.write(tomli_w.dumps(data))
    card = render_card(fit, source=str(args.labelled), fingerprint=fingerprint, answer=answer_fit)
    if combined is not None:
        card += "\n" + combined[1]
    card_path = output.with_suffix(".md")
    with replaced_on_success(card_path) as out:
        out.write(card)
    print(card)
    print(f"wrote {output} and its card {card_path}")
    return EXIT_SKIPPED if skipped else EXIT_OK
