"""The board picture (the same SVG as ``board.svg``) as PNG, for mail clients, which show
an inline PNG but rarely an SVG. resvg (the ``resvg-py`` wheel) draws it; text uses the
system's fonts (CI installs Debian's fonts-dejavu-core)."""

from __future__ import annotations

import resvg_py


def png(svg: str, width: int | None = None) -> bytes:
    """PNG bytes of ``svg`` (at its own size, or ``width`` pixels wide)."""
    data = resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff", width=width)
    return bytes(data)
