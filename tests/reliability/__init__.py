"""Reliability and security suite: faults, concurrency, bad input and COBS secrets (issue 7)."""
