"""Machinery shared by titles: codecs, envelopes. Titles never import each other."""
