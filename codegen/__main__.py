"""``python -m kafkaspec.codegen``: run the generator (:func:`kafkaspec.codegen.main`)."""

import sys

from kafkaspec.codegen import main

if __name__ == "__main__":
    sys.exit(main())
