"""Filter pushdown on a log directory: a selective query with and without pushdown.

``python -m bench.pushdown [DIR]`` (default ``build/demo/logs``, made by ``make demo``)
counts the rows of one filter written two ways: pushable (topic and offset compared
to literals) and not (the same test through ``upper()`` and ``* 2``, which Spark
cannot hand to the source). Each runs twice, alternating; the second runs are warm.
"""

from __future__ import annotations

import sys
import time

QUERIES = {
    "pushed": "topic = 'users' and offset >= 1000000",
    "not pushed": "upper(topic) = 'USERS' and offset * 2 >= 2000000",
}


def main(path: str) -> None:
    from kafkaspec.spark.session import build_session

    spark = build_session("local[2]", "kafkaspec-bench-pushdown")
    df = spark.read.format("kafkalog").load(path)
    df.limit(1).collect()  # warm up the JVM and the Python workers
    best: dict[str, tuple[float, int]] = {}
    for _ in range(2):
        for name, where in QUERIES.items():
            t0 = time.perf_counter()
            n = df.where(where).count()
            best[name] = min(best.get(name, (float("inf"), n)), (time.perf_counter() - t0, n))
    spark.stop()
    for name, (seconds, n) in best.items():
        print(f"{name:<11} {QUERIES[name]:<52} {n:>11,} rows {seconds:7.2f} s")
    print(f"pushdown: {best['not pushed'][0] / best['pushed'][0]:.1f}x faster")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "build/demo/logs")
