"""Arrow, in one place: the ``kafkalog`` columns as ``pyarrow.RecordBatch``es, without Spark.

``engine`` (the columnar engine: many v2 batches decoded at once with numpy), ``ranges`` (the range
reader: one byte range of a segment, filtered, as Spark's ``kafkalog`` source reads it) and
``partitions`` (``Partition.to_arrow`` and ``LogDir.to_arrow_batches``). Needs numpy and pyarrow
(``kafkaspec[spark]``); ``import kafkaspec`` does not load this package.
"""
