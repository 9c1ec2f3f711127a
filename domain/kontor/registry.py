"""Which extensions hook into the core, in which order (the order of each hook point's
functions is the order here). The only module that imports every extension; each one
decides from the options whether it acts in a given game."""

from __future__ import annotations

from domain.kontor.core.hooks import HOOKS
from domain.kontor.expansions import dispatch as expansions
from domain.kontor.forms.free_wheel import placement as fw_placement
from domain.kontor.forms.free_wheel import turns as free_wheel
from domain.kontor.scenarios import mechanics as scenarios

#: forms first (they replace core steps), then scenarios, special rules, expansions
EXTENSIONS = (fw_placement, free_wheel, scenarios, expansions)

_registered = False


def register_all() -> None:
    """Fill ``HOOKS`` once."""
    global _registered
    if _registered:
        return
    _registered = True
    for extension in EXTENSIONS:
        extension.register(HOOKS)
