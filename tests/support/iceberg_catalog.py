"""Apache Iceberg's REST catalog test server (``org.apache.iceberg.rest.RESTCatalogServer``, of
``iceberg-open-api``'s test fixtures) on 127.0.0.1, a JDBC catalog on in-memory SQLite behind it and a
local warehouse folder (Hadoop's file IO, its client jars pyspark's).

The jars are copied by Maven (``tests/support/iceberg_rest/pom.xml``) into ``.tools/iceberg-rest/`` once
and kept there (git-ignored), as :mod:`support.kafka_broker` keeps a broker's."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

from support.kafka_broker import REPO, free_port, maven_copy_dependencies

POM = Path(__file__).resolve().parent / "iceberg_rest" / "pom.xml"
CACHE = REPO / ".tools" / "iceberg-rest"
#: how long the server may take to answer after its start
START_TIMEOUT = 120.0


def jars() -> Path:
    done = CACHE / ".complete"
    if done.exists():
        return CACHE
    if CACHE.exists():
        shutil.rmtree(CACHE)  # a half-copied folder of ours
    CACHE.mkdir(parents=True)
    got = maven_copy_dependencies(POM, CACHE)
    assert got.returncode == 0, f"Maven could not fetch the REST catalog's jars: {got.stdout[-500:]}"
    done.write_text("ok\n")
    return CACHE


def hadoop_jars() -> list[str]:
    import pyspark

    found = sorted(str(p) for p in (Path(pyspark.__file__).parent / "jars").glob("hadoop-client-*.jar"))
    assert found, "pyspark's jars hold no hadoop-client-*.jar"
    return found


class RestCatalog:
    """The server, started by ``with``: :attr:`uri` answers until the block ends (the JVM then ended)."""

    def __init__(self, warehouse: Path, log: Path):
        self.warehouse, self.log = warehouse, log
        self.port = free_port()
        self.uri = f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> RestCatalog:
        cp = os.pathsep.join([str(jars() / "*"), *hadoop_jars()])
        env = {
            **os.environ,
            "CATALOG_WAREHOUSE": self.warehouse.as_uri(),
            "CATALOG_REST_PORT": str(self.port),
        }
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                ["java", "-cp", cp, "org.apache.iceberg.rest.RESTCatalogServer"],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
            )
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                urllib.request.urlopen(f"{self.uri}/v1/config", timeout=5).close()
                return self
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.__exit__()
                    raise AssertionError(
                        f"the REST catalog did not start: {self.log.read_text()[-800:]}"
                    ) from None
                time.sleep(0.2)

    def __exit__(self, *exc: object) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(30)
