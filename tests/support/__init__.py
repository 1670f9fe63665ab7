"""Helpers shared by the test folders: the corpus locator, the one differential helper, strategies."""
