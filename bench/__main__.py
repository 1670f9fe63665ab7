"""``make bench``: every benchmark, printed as tables with ratios measured in this run."""

from __future__ import annotations

import os
import platform

from . import v2


def main() -> None:
    quick = bool(os.environ.get("BENCH_QUICK"))
    print(f"# kafkaspec bench — Python {platform.python_version()}, {os.cpu_count()} cores")
    print(v2.report(v2.run(quick=quick)))


if __name__ == "__main__":
    main()
