"""The WSGI entry point for gunicorn: `gunicorn api.wsgi:app` (DATABASE_URL, REDIS_URL set)."""

from api import create_app

app = create_app()
