"""The ``kafkalog`` writer: ``df.write.format("kafkalog")`` to Kafka partition directories.

:mod:`.writer` (the Data Source API writer and its tasks), :mod:`.batches` (the batch-preserving mode)
and :mod:`.commit` (the tasks' pieces planned, then applied, so a failed job leaves nothing visible).
"""
