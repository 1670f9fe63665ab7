"""Writing log directories Kafka loads: appending partitions, rewriting a log, synthesising one.

The top wing of :mod:`kafkaspec.logdir`: :class:`~.writer.PartitionWriter` (:mod:`.writer`), the
filtered copy of ``kafkaspec rewrite`` (:mod:`.rewrite`) and ``kafkaspec synth`` (:mod:`.synthesis`).
"""
