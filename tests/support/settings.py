"""Shared hypothesis settings for the v2 suite.

``KAFKASPEC_FUZZ_EXAMPLES`` (default 300, ``make test FUZZ_EXAMPLES=20000`` for a long
run) sets max_examples of the property tests; the expensive ones scale it down so
the default suite stays short on a shared machine.

The examples are derandomized (the same for every run, so CI gives one answer for one tree);
``KAFKASPEC_FUZZ_RANDOM=1`` draws fresh ones, for a long run that looks for new failures.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

FUZZ_EXAMPLES = int(os.environ.get("KAFKASPEC_FUZZ_EXAMPLES", "300"))
DERANDOMIZE = os.environ.get("KAFKASPEC_FUZZ_RANDOM") != "1"

# every @given test, including those that set no settings of their own (hypothesis's 100 examples, or
# fewer when KAFKASPEC_FUZZ_EXAMPLES asks for fewer: make check-fast)
settings.register_profile(
    "kafkaspec", derandomize=DERANDOMIZE, deadline=None, max_examples=min(100, FUZZ_EXAMPLES)
)
settings.load_profile("kafkaspec")

settings.register_profile(
    "kafkaspec-v2",
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    derandomize=DERANDOMIZE,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
FUZZ = settings.get_profile("kafkaspec-v2")


def scaled(divisor: int, minimum: int = 10) -> settings:
    """The suite's settings with max_examples divided by ``divisor`` (for costly examples)."""
    return settings(FUZZ, max_examples=max(minimum, FUZZ_EXAMPLES // divisor))
