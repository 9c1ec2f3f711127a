"""Machinery shared by titles: codecs, envelopes, and the computer seats (computer.py:
the one entry point, which re-deals hidden information first; search.py: the generic
search of the strong level). Titles never import each other."""
