"""The services the app was built with."""

from __future__ import annotations

from flask import current_app

from service.runtime.container import Services


def services() -> Services:
    return current_app.extensions["entrepot"]
