"""The ``kafkalog`` source as a stream: ``spark.readStream.format("kafkalog")``.

:mod:`.reader` (offsets, limits and micro-batch planning over a growing log) and :mod:`.offsets` (the
offsets' JSON in a checkpoint). A micro-batch's tasks read as a batch read's do (:mod:`kafkaspec.spark.read.tasks`).
"""
