"""``kafkaspec verify``: every check of a log directory, and the data dir summary of ``inspect datadir``.

Above :mod:`kafkaspec.logdir.tiered`: the verifier (:mod:`.verifier`), the checks of a broker data
dir's own files (:mod:`.datadir`) and their summary (:mod:`.summary`).
"""
