"""A tiny SVG writer: elements as strings, attributes escaped, output deterministic.

Deterministic output (attribute order as given, no ids from counters or time) is what
lets the pictures be golden files in the tests.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr


def _attrs(attrs: dict) -> str:
    parts = []
    for name, value in attrs.items():
        if value is None or value is False:
            continue
        parts.append(f" {name.rstrip('_').replace('_', '-')}={quoteattr(str(value))}")
    return "".join(parts)


class Picture:
    """An SVG document built element by element."""

    def __init__(self, width: int, height: int, title: str, description: str = ""):
        self.width = width
        self.height = height
        self._parts: list[str] = [f"<title>{escape(title)}</title>"]
        if description:
            self._parts.append(f"<desc>{escape(description)}</desc>")

    def add(self, tag: str, text: str | None = None, tooltip: str | None = None, **attrs) -> None:
        inner = ""
        if tooltip:
            inner += f"<title>{escape(tooltip)}</title>"
        if text is not None:
            inner += escape(text)
        if inner:
            self._parts.append(f"<{tag}{_attrs(attrs)}>{inner}</{tag}>")
        else:
            self._parts.append(f"<{tag}{_attrs(attrs)}/>")

    def open(self, tag: str = "g", tooltip: str | None = None, **attrs) -> None:
        self._parts.append(f"<{tag}{_attrs(attrs)}>")
        if tooltip:
            self._parts.append(f"<title>{escape(tooltip)}</title>")

    def close(self, tag: str = "g") -> None:
        self._parts.append(f"</{tag}>")

    def text(self, x: float, y: float, value: str, size: int = 12, **attrs) -> None:
        self.add("text", value, x=x, y=y, font_size=size, **attrs)

    def render(self) -> str:
        head = (
            '<svg xmlns="http://www.w3.org/2000/svg" '
            f'width="{self.width}" height="{self.height}" '
            f'viewBox="0 0 {self.width} {self.height}" role="img" '
            'font-family="DejaVu Sans, Arial, sans-serif">'
        )
        return head + "".join(self._parts) + "</svg>\n"
