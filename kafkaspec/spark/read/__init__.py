"""The ``kafkalog`` source's batch read: ``spark.read.format("kafkalog")``.

:mod:`.source` (the Data Source API classes; :mod:`.partition`, their input partition), :mod:`.schema`
(columns), :mod:`.options` (reader options; their names in :mod:`.option_names`), :mod:`.planning`
(driver: options to offsets, each partition planned into byte ranges by
:func:`kafkaspec.arrow.ranges.plan_partition`), :mod:`.pushdown` (Spark filters the source applies),
:mod:`.tasks` (executor: a range task's batches in the options' columns), :mod:`.audit` (the batch-audit
view), :mod:`.decoding` (Kafka's own payloads) and :mod:`.values` (typed keys and values).
"""
