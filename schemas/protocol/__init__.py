"""Kafka 0.8+ protocol messages that carry log entries (package data, like the rest of schemas/)."""
