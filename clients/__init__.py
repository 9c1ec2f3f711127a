"""Separate clients that speak only HTTP to an Entrepot server."""
