"""``ragguard judge-bench`` on the development sets (WiCE dev, Factcheck-GPT): lite alone,
the judge alone and the cascade, the share sent and the tokens. The dev-set readers live
in ``benchmarks/`` only, so the product cannot train or choose on them.

    python benchmarks/judge_devsets.py --config judge.toml --data DIR [--limit N] [--seed S]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import devsets

from ragguard.cli.judge_bench import bench_report
from ragguard.config import Config
from ragguard.judge.bench import Case


def dev_cases(data: Path) -> dict[str, list[Case]]:
    return {
        name: [Case(c.claim, c.evidence, c.label) for c in reader(data)]
        for name, reader in (("wice-dev", devsets.wice), ("factcheck-gpt", devsets.factcheck_gpt))
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-c", "--config", required=True, help="config with a [judge] section")
    devsets.add_data_argument(parser)
    parser.add_argument("--limit", type=int, default=None, help="pairs drawn per dev set")
    parser.add_argument("--seed", type=int, default=0, help="which pairs --limit draws")
    args = parser.parse_args(argv)
    config = Config.from_file(args.config)
    print(bench_report(config, dev_cases(args.data), limit=args.limit, seed=args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
