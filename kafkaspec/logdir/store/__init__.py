"""Where a log directory's bytes are: a local folder or an object-store prefix, read and written alike.

The lowest wing of :mod:`kafkaspec.logdir`: paths of either kind (:mod:`.fs`), the object-store
clients (:mod:`.storage`, :mod:`.clients`), ranged reads (:mod:`.ranged`), staged writes
(:mod:`.staging`) and the commit of a published output (:mod:`.publish`). Nothing here knows Kafka's
files; everything above reads and writes through it.
"""
