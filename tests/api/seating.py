"""Nobody is seated without consent: tests that seat other players have them accept."""

from __future__ import annotations


def accept_invitations(client, game: dict, players: list[dict], viewer: dict | None = None) -> dict:
    """Every invited player accepts their seats; returns the game as ``viewer`` then sees it."""
    tokens = {p["id"]: p["token"] for p in players}
    for seat in game["seats"]:
        if seat["status"] == "invited":
            response = client.post(f"/v1/games/{game['id']}/seats/{seat['index']}/accept",
                                   token=tokens[seat["player_id"]])
            assert response.status_code == 200, response.json
    return client.get(f"/v1/games/{game['id']}", token=viewer["token"] if viewer else None).json
