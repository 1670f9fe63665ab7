"""Apache Kafka's own log directory: its names, segments, indexes, snapshots and text files.

Above :mod:`kafkaspec.logdir.store`: partition folders and their segments (:mod:`.layout`,
:mod:`.segment`), the index and snapshot files (:mod:`.indexes`, :mod:`.snapshot`), checkpoints and
the node's files (:mod:`.checkpoints`, :mod:`.node_files`, :mod:`.files`), transactions
(:mod:`.transactions`), following a growing partition (:mod:`.tail`), windowed reads of a remote
segment (:mod:`.window`) and the batch edits a rewrite makes (:mod:`.batch_surgery`).
"""
