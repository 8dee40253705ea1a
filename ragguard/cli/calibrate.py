"""``ragguard calibrate``: fit the support threshold and the judge band to your labels."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ragguard.cli._common import (
    EXIT_OK,
    EXIT_SKIPPED,
    refuse_overwriting_input,
    replaced_on_success,
)
from ragguard.errors import RagguardError


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
    from ragguard.calibration import describe
    from ragguard.config import Config

    calibration = Config.from_file(path).calibration
    print(f"{path}: calibration {describe(calibration.fitted, calibration.source)}")
    return EXIT_OK


def run(args: argparse.Namespace) -> int:
    if args.show:
        return _show(args.show)
    if not args.labelled or not args.output:
        raise RagguardError("calibrate needs LABELLED.jsonl and -o OUT.toml (or --show CONFIG)")
    from ragguard.calibration import CalibrationRequest, calibrate_file
    from ragguard.config import Config
    from ragguard.evaluation import Guard

    output = Path(args.output)
    refuse_overwriting_input([args.labelled], args.output)
    base = Config.coerce(args.config)
    band_share = base.calibration.band_share if args.band_share is None else args.band_share
    request = CalibrationRequest(Path(args.labelled), base, band_share, judge=args.judge)
    guard = Guard(request.lite_config())
    calibrated = calibrate_file(request, guard, lambda note: print(note, file=sys.stderr))
    with replaced_on_success(output) as out:
        out.write(calibrated.config_text)
    card_path = output.with_suffix(".md")
    with replaced_on_success(card_path) as out:
        out.write(calibrated.card)
    print(calibrated.card)
    print(f"wrote {output} and its card {card_path}")
    return EXIT_SKIPPED if calibrated.skipped else EXIT_OK
