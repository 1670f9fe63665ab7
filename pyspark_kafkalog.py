"""The ``kafkalog`` Spark source, found by Spark without ``kafkaspec.spark.register(spark)``.

At a session's first use of a Python data source, PySpark 4 imports every top-level module whose
name starts with ``pyspark_`` that its Python workers can import, and registers the data source
class each names ``DefaultSource`` (``pyspark/sql/worker/lookup_data_sources.py``); there is no
entry-point group. kafkaspec's wheel installs this module for it, so ``spark.read.format("kafkalog")``
works in any session whose Python workers run an interpreter with kafkaspec (``register`` also
turns on filter pushdown and points the workers at the calling interpreter).
"""

try:  # an error here would fail every Python data source lookup of the session, not only kafkalog's
    from kafkaspec.spark.read.source import DiscoveredDataSource as DefaultSource  # noqa: F401 (Spark looks it up)
except ImportError:  # kafkaspec without its spark extra: no source to offer
    pass
