"""The application layer: the single write path, ports and adapters, read models.

api/ and workers/ call into here; nothing here knows Flask.
"""
