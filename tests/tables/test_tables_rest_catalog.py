"""A table run through a working Iceberg REST catalog (issue 43 item 1: ``--catalog-uri http://...``):
Apache Iceberg's own REST catalog test server (:mod:`support.iceberg_catalog`, a JVM: marked ``spark``,
whose Hadoop jars it loads), the table read back by pyiceberg through the same catalog, and a re-run
appending only what is new from the offsets the REST catalog's commit stored."""

from __future__ import annotations

import pytest
from support.iceberg_catalog import RestCatalog
from support.tables import write_orders, write_transactions

from kafkaspec.tables import write_table

pytestmark = pytest.mark.spark


def test_a_table_written_through_a_rest_catalog_reads_back(tmp_path):
    src, dest, warehouse = tmp_path / "logs", tmp_path / "lake", tmp_path / "warehouse"
    warehouse.mkdir()
    canary = tmp_path / "canary"
    canary.write_text("keep")
    write_orders(src, 5)
    write_transactions(src, topic="pay")
    with RestCatalog(warehouse, tmp_path / "server.log") as server:
        from pyiceberg.catalog import load_catalog

        first = write_table(str(src), str(dest), format="iceberg", catalog_uri=server.uri)
        assert (first.rows, first.aborted) == (5 + 1, 1)
        catalog = load_catalog("rest", type="rest", uri=server.uri)
        orders = catalog.load_table(("kafka", "orders"))
        assert orders.metadata.location.startswith(warehouse.as_uri())
        assert sorted(orders.scan().to_arrow().column("value").to_pylist()) == [b"a-%d" % i for i in range(5)]

        write_orders(src, 2, tag=b"b")
        again = write_table(str(src), str(dest), format="iceberg", catalog_uri=server.uri)
        assert again.rows == 2 and again.unchanged == ["pay"]
        rows = catalog.load_table(("kafka", "orders")).scan().to_arrow()
        assert sorted(rows.column("offset").to_pylist()) == list(range(7))
    assert canary.read_text() == "keep"
