"""Arrow, in one place: the ``kafkalog`` columns as ``pyarrow.RecordBatch``es, without Spark.

``engine`` (the columnar engine: many v2 batches decoded at once with numpy, a package by stage),
``ranges`` (the range reader: one byte range of a segment, filtered, as Spark's ``kafkalog`` source
reads it), ``partitions`` (``Partition.to_arrow`` and ``LogDir.to_arrow_batches``), ``value_types``
and ``value_columns`` (keys and values decoded with their schemas, :mod:`kafkaspec.values`, as typed
columns), ``payload_columns`` (Kafka's own payloads decoded) and ``columns`` (a batch built once with
all its columns). Needs numpy and pyarrow (``kafkaspec[spark]``); ``import kafkaspec`` does not load
this package.
"""
