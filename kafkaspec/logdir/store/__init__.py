"""Where a log directory's bytes are: a local folder or an object-store prefix, read and written alike.

The lowest wing of :mod:`kafkaspec.logdir`: paths of either kind and what a reader asks of them
(:mod:`.fs`), where a writer's output goes (:mod:`.location`), the object-store side (:mod:`.storage`,
:mod:`.remote_path`, :mod:`.pinned`, :mod:`.errors`, :mod:`.clients`), ranged reads (:mod:`.ranged`),
staged writes (:mod:`.staging`) and the commit of a published output (:mod:`.publish`). Nothing here
knows Kafka's files; everything above reads and writes through it, and only this wing asks which kind
of storage a path is in.
"""
