"""``make bench``: every benchmark, printed as tables with ratios measured in this run.

``BENCH_QUICK=1`` shrinks the data sizes; ``BENCH_ONLY=v2,legacy,instructions,engine,java,stages,compression,logdir,``
``spark,write,storage,values,tables,scale,stream`` picks sections (``java``: Kafka's own FileRecords reader against ours, see
``bench/java.py``; ``stages``: where our side of it spends its time, ``bench/stages.py``; ``compression``:
per-batch decompression against the library call alone, ``bench/compression.py``; ``tables``: the demo
into Iceberg and Delta against plain Parquet, ``bench/tables.py``; ``scale``: the pipeline from 20 MB
to 1 GB and on many partitions against its one-process floor, ``bench/scale.py``; ``stream``: a Spark stream's trigger latency and
CPU per trigger against a Python source's floor, ``bench/stream.py``).
"""

from __future__ import annotations

import importlib
import os
import platform

SECTIONS = (
    "v2",
    "legacy",
    "instructions",
    "engine",
    "java",
    "stages",
    "compression",
    "logdir",
    "spark",
    "write",
    "storage",
    "values",
    "tables",
    "scale",
    "stream",
)


def main() -> None:
    quick = bool(os.environ.get("BENCH_QUICK"))
    only = [s for s in os.environ.get("BENCH_ONLY", ",".join(SECTIONS)).split(",") if s]
    print(f"# kafkaspec bench — Python {platform.python_version()}, {os.cpu_count()} cores, quick={quick}")
    for name in only:
        module = importlib.import_module(f"bench.{name}")
        print()
        print(module.report(module.run(quick=quick)), flush=True)


if __name__ == "__main__":
    main()
