"""The pipeline job (``kafkaspec pipeline``): a log directory to Parquet or to tables, on Spark.

:mod:`.pipeline` (the job), :mod:`.onepass` (a task's one pass over its ranges: records, audit and
counts), :mod:`.incremental` (``--incremental`` / ``--follow``: lock, commit, recovery), :mod:`.tables`
(Iceberg and Delta from the executors), :mod:`.summary` (``summary.json`` and the printed lines),
:mod:`.status` (the progress line) and :mod:`.interrupts` (Ctrl-C and SIGTERM).
"""
