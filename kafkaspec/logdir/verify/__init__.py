"""``kafkaspec verify``: every check of a log directory, and the data dir summary of ``inspect datadir``.

Above :mod:`kafkaspec.logdir.tiered`: the verifier by job: the pass over paths, partitions and
segments (:mod:`.verifier`, the problems it returns in :mod:`.problem`), the segment scan
(:mod:`.scan`), the index cross-checks (:mod:`.index_checks`), the state files beside the segments
(:mod:`.state_files`); the checks of a broker data dir's own files (:mod:`.datadir`) and their
summary (:mod:`.summary`).
"""
