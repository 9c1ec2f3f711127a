"""Audit: the hash chain, signed receipts and self-contained audit records of a game's history."""
