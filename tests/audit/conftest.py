from tests.api.conftest import app, client, new_player, services  # noqa: F401
