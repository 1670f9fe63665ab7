"""spark-submit entry point of the pipeline: ``spark-submit kafkaspec/spark/job.py INPUT OUTPUT``.

The same job as ``kafkaspec pipeline``; the master comes from spark-submit's
``--master`` (or ``--master`` after the script). kafkaspec must be importable
by the driver and the executors' Python (``PYSPARK_PYTHON``).
"""

import sys

from kafkaspec.spark.run.pipeline import main

if __name__ == "__main__":
    sys.exit(main(prog="spark-submit kafkaspec/spark/job.py"))
