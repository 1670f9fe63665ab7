"""``python -m kafkaspec``: the ``kafkaspec`` command (:mod:`kafkaspec.cli`), for an environment whose
scripts folder is not on PATH."""

import sys

from kafkaspec.cli import main

if __name__ == "__main__":
    sys.exit(main())
