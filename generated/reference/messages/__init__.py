"""Construct reference codecs of Kafka's own payloads, generated from schemas/messages/. DO NOT EDIT."""
