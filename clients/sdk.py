"""A small Python SDK for the Entrepot REST API (v1). It speaks only HTTP.

    client = Client("http://127.0.0.1:8000")    # or Client(): $ENTREPOT_URL, $ENTREPOT_TOKEN
    me = client.create_player("Ada")            # remembers the token
    game = client.create_game("kontor", seats=[{"player_id": me["id"]}, {"ai": "normal"}])
    legal = client.legal_commands(game["id"])
    client.command(game["id"], legal["commands"][0], expected_version=legal["version"])
"""

from __future__ import annotations

import os
import uuid
from typing import Any

import requests

DEFAULT_URL = "http://127.0.0.1:8000"


class EntrepotError(Exception):
    """Anything that kept a call from getting its answer; ``str()`` is one line."""


class Unreachable(EntrepotError):
    """No HTTP answer at all: the server is down, the URL is wrong, or it timed out."""


class ApiError(EntrepotError):
    """A problem+json answer: ``status``, stable ``code``, ``detail`` and the whole body."""

    def __init__(self, status: int, body: dict):
        super().__init__(f"{status} {body.get('code')}: {body.get('detail')}")
        self.status = status
        self.code = body.get("code")
        self.detail = body.get("detail")
        self.body = body


class Client:
    """``base_url`` and ``token`` default to $ENTREPOT_URL (else DEFAULT_URL) and
    $ENTREPOT_TOKEN: the one place the CLI, the bot and scripts take them from."""

    def __init__(self, base_url: str | None = None, token: str | None = None, timeout: float = 30.0,
                 session: requests.Session | None = None):
        self.base_url = (base_url or os.environ.get("ENTREPOT_URL") or DEFAULT_URL).rstrip("/")
        self.token = token or os.environ.get("ENTREPOT_TOKEN") or None
        self.timeout = timeout
        self.session = session or requests.Session()

    def _call(self, method: str, path: str, json: Any = None, params: dict | None = None,
              idempotent: bool = False) -> Any:
        headers = {}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if idempotent:
            headers["Idempotency-Key"] = str(uuid.uuid4())
        try:
            response = self.session.request(method, self.base_url + path, json=json, params=params,
                                            headers=headers, timeout=self.timeout)
        except requests.Timeout:
            raise Unreachable(f"no answer from {self.base_url} within {self.timeout:g} s") from None
        except requests.RequestException as err:
            raise Unreachable(f"cannot reach the server at {self.base_url} "
                              f"({type(err).__name__}); is it running?") from None
        try:
            body = response.json() if response.content else None
        except ValueError:
            body = {"code": "not_json", "detail": f"the server answered {response.status_code} "
                    f"with {response.headers.get('Content-Type', 'no content type')}, not JSON"}
            raise ApiError(response.status_code, body) from None
        if response.status_code >= 400:
            raise ApiError(response.status_code, body or {})
        return body

    # players
    def create_player(self, name: str, email: str | None = None) -> dict:
        player = self._call("POST", "/v1/players", {"name": name, "email": email}, idempotent=True)
        self.token = player["token"]
        return player

    def me(self) -> dict:
        return self._call("GET", "/v1/players/me")

    # titles
    def titles(self) -> list[dict]:
        return self._call("GET", "/v1/titles")

    def title(self, title_id: str) -> dict:
        return self._call("GET", f"/v1/titles/{title_id}")

    # games
    def create_game(self, title: str, seats: list[dict], options: dict | None = None,
                    seed: str | None = None, time_control: dict | None = None, **listing: Any) -> dict:
        """``listing``: rated, private, rating_range (the lobby's choices)."""
        body: dict[str, Any] = {"title": title, "seats": seats, "options": options or {}}
        if seed is not None:
            body["seed"] = seed
        if time_control is not None:
            body["time_control"] = time_control
        body.update({k: v for k, v in listing.items() if v is not None})
        return self._call("POST", "/v1/games", body, idempotent=True)

    def join(self, game_id: str, seat: int) -> dict:
        return self._call("POST", f"/v1/games/{game_id}/seats/{seat}/join", idempotent=True)

    def accept(self, game_id: str, seat: int) -> dict:
        """Accept the seat you were invited to (the game starts once every seat is accepted)."""
        return self._call("POST", f"/v1/games/{game_id}/seats/{seat}/accept", idempotent=True)

    def decline(self, game_id: str, seat: int) -> dict:
        """Decline an invitation: the seat becomes open."""
        return self._call("POST", f"/v1/games/{game_id}/seats/{seat}/decline", idempotent=True)

    def games(self, **filters) -> dict:
        return self._call("GET", "/v1/games", params=filters)

    def game(self, game_id: str, seat: int | None = None) -> dict:
        return self._call("GET", f"/v1/games/{game_id}", params=_seat(seat))

    def legal_commands(self, game_id: str, seat: int | None = None) -> dict:
        return self._call("GET", f"/v1/games/{game_id}/legal-commands", params=_seat(seat))

    def command(self, game_id: str, command: dict, seat: int | None = None,
                expected_version: int | None = None, next_moves: bool = False) -> dict:
        """``next_moves``: the answer's ``legal_commands`` tells what this seat may play next
        (empty when another seat is to act): no ``legal_commands`` call needed to play on."""
        body: dict[str, Any] = {"command": command}
        if seat is not None:
            body["seat"] = seat
        if expected_version is not None:
            body["expected_version"] = expected_version
        return self._call("POST", f"/v1/games/{game_id}/commands", body,
                          params={"include": "legal_commands"} if next_moves else None, idempotent=True)

    def events(self, game_id: str, after: int = 0, limit: int = 200) -> dict:
        return self._call("GET", f"/v1/games/{game_id}/events", params={"after": after, "limit": limit})

    def state(self, game_id: str, at: int | None = None) -> dict:
        return self._call("GET", f"/v1/games/{game_id}/state", params={"at": at} if at else None)

    def export(self, game_id: str) -> dict:
        return self._call("GET", f"/v1/games/{game_id}/export")

    # lobby, players, ratings, archive
    def lobby(self, title: str | None = None, limit: int = 50) -> dict:
        return self._call("GET", "/v1/lobby", params={"limit": limit, **({"title": title} if title else {})})

    def find_players(self, name: str, limit: int = 20) -> list[dict]:
        return self._call("GET", "/v1/players", params={"name": name, "limit": limit})["players"]

    def profile(self, player_id: str) -> dict:
        return self._call("GET", f"/v1/players/{player_id}")

    def invitations(self) -> list[dict]:
        return self._call("GET", "/v1/players/me/invitations")["invitations"]

    def leaderboard(self, title: str, limit: int = 50) -> dict:
        return self._call("GET", f"/v1/titles/{title}/leaderboard", params={"limit": limit})

    def archive(self, **filters) -> dict:
        """Finished games: player, title, result (won|lost|any), form, after, before, limit."""
        return self._call("GET", "/v1/games", params={"status": "finished",
                                                      **{k: v for k, v in filters.items() if v is not None}})

    # correspondence play
    def turns(self, limit: int = 50) -> dict:
        """The games waiting for me, most urgent first."""
        return self._call("GET", "/v1/games", params={"player": "me", "to_act": "me", "limit": limit})

    def resign(self, game_id: str, seat: int | None = None) -> dict:
        return self._call("POST", f"/v1/games/{game_id}/resign", _seat(seat), idempotent=True)

    def abort(self, game_id: str, seat: int | None = None) -> dict:
        return self._call("POST", f"/v1/games/{game_id}/abort", _seat(seat), idempotent=True)

    def vacation(self) -> dict:
        return self._call("GET", "/v1/players/me/vacation")

    def start_vacation(self, until: str, starts: str | None = None) -> dict:
        body = {"until": until} | ({"from": starts} if starts else {})
        return self._call("PUT", "/v1/players/me/vacation", body)

    def end_vacation(self) -> dict:
        return self._call("DELETE", "/v1/players/me/vacation")

    # personal access tokens (scopes: read, play, notifications, account)
    def tokens(self) -> dict:
        return self._call("GET", "/v1/players/me/tokens")

    def create_token(self, name: str, scopes: list[str]) -> dict:
        """A new token; its secret (``token``) is in this answer only."""
        return self._call("POST", "/v1/players/me/tokens", {"name": name, "scopes": scopes})

    def revoke_token(self, token_id: str) -> None:
        self._call("DELETE", f"/v1/players/me/tokens/{token_id}")
    def takeback(self, game_id: str, seat: int | None = None) -> dict:
        """Ask to take back my last move (the other people's seats answer)."""
        return self._call("POST", f"/v1/games/{game_id}/takeback", _seat(seat), idempotent=True)

    def answer_takeback(self, game_id: str, accept: bool, seat: int | None = None) -> dict:
        verb = "accept" if accept else "decline"
        return self._call("POST", f"/v1/games/{game_id}/takeback/{verb}", _seat(seat), idempotent=True)

    def notes(self, game_id: str) -> dict:
        """My private notes on a game (nobody else reads them)."""
        return self._call("GET", f"/v1/games/{game_id}/notes")

    def set_notes(self, game_id: str, text: str) -> dict:
        return self._call("PUT", f"/v1/games/{game_id}/notes", {"text": text})


def _seat(seat: int | None) -> dict | None:
    return {"seat": seat} if seat is not None else None
