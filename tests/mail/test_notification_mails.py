"""Notification mails: the "your turn" mail's content, coalescing, idempotency, the
sweeper's re-send, the daily digest, and no mail while the player watches the game."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from rq import Queue
from rq.registry import ScheduledJobRegistry

from service.clock import FixedClock
from service.job_queue import WEBHOOK_DISABLED
from service.mail.mailer import Mailer, watching_key
from tests.mail.conftest import insert_notification, text_of


def _mailer(mail_services, clock=None, **changes) -> Mailer:
    """The session's mailer with other settings (window, digest period), on ``clock`` if given."""
    mailer = mail_services.mailer
    return Mailer(mailer.store, mailer.games, mailer.redis, mailer.queue, mailer.transport, mailer.tokens,
                  replace(mailer.settings, **changes), clock)


def _seat_of(game: dict, player: dict) -> int:
    return next(s["index"] for s in game["seats"] if s["player_id"] == player["id"])


def test_your_turn_mail_shows_the_position_numbered_moves_a_link_and_a_signed_reply_to(
        client, sink, mail_services, two_seat_game, verified_player):
    mails, _ = sink
    ada, bob = verified_player("Ada"), verified_player("Bob")
    game = two_seat_game(ada, bob)
    seat = _seat_of(game, ada)
    nid = insert_notification(mail_services, ada["id"], game["id"], seat, "your_turn", game["version"])
    assert mail_services.mailer.mail_notification(nid) == "sent"
    mail = mails.to(ada["email"])[-1]
    assert mail.get_content_type() == "multipart/alternative"
    assert "Kontor" in str(mail["Subject"]) and game["id"][:8] in str(mail["Subject"])
    text = text_of(mail)
    legal = client.get(f"/v1/games/{game['id']}/legal-commands", token=ada["token"]).json
    assert len(legal["descriptions"]) == len(legal["commands"])
    for number, words in enumerate(legal["descriptions"], start=1):  # the same words as every client
        assert f"\n{number}. {words}\n" in text.replace("\r\n", "\n")
        assert words.startswith(("choose card ", "pass: "))
    assert "ChooseCard" not in text and "{" not in text  # words, never raw commands
    assert f"http://entrepot.test/#/games/{game['id']}" in text
    # the position is the seat's own view: their hand, never the other's
    view = client.get(f"/v1/games/{game['id']}/state", token=ada["token"]).json["view"]
    mine = [c["number"] for c in view["you"]["hand"]]
    hand_line = next(line for line in text.splitlines() if line.startswith("Your hand"))
    assert all(f"card {n} (" in hand_line for n in mine)
    theirs = client.get(f"/v1/games/{game['id']}/state", token=bob["token"]).json["view"]["you"]["hand"]
    assert theirs and not any(f"card {c['number']} (" in text for c in theirs)
    assert "Scores: Ada (you, red) 0 points" in text
    reply_to = str(mail["Reply-To"])
    assert reply_to.startswith("play+") and reply_to.endswith("@games.test")
    token = reply_to.split("+")[1].split("@")[0]
    with mail_services.store.read() as tx:
        row = tx.conn.execute("SELECT token_hash, game_id::text, seat, version FROM reply_tokens"
                              " WHERE player_id = %s", (ada["id"],)).fetchone()
    assert token not in row[0] and row[1:] == (game["id"], seat, game["version"])
    assert "<ol>" in mail.get_body(("html",)).get_content()


def test_a_job_run_twice_sends_one_mail(client, sink, mail_services, run_jobs, two_seat_game, verified_player):
    mails, _ = sink
    ada, bob = verified_player("Ada"), verified_player("Bob")
    game = two_seat_game(ada, bob)
    nid = insert_notification(mail_services, ada["id"], game["id"], _seat_of(game, ada), "your_turn", game["version"])
    before = len(mails.to(ada["email"]))
    queue = Queue(mail_services.settings.queue_name, connection=mail_services.redis)
    for _ in range(2):  # a redelivery: the same job (as the fan-out enqueues it) twice
        queue.enqueue("workers.mail_jobs.mail_notification", nid, job_id=f"mail-{nid}")
        run_jobs()
    assert mail_services.mailer.mail_notification(nid) == "duplicate"
    assert len(mails.to(ada["email"])) == before + 1


def test_a_claim_a_crash_left_unsent_is_sent_by_the_sweeper(client, sink, mail_services, run_jobs,
                                                           two_seat_game, verified_player):
    mails, _ = sink
    ada, bob = verified_player("Ada"), verified_player("Bob")
    game = two_seat_game(ada, bob)
    nid = insert_notification(mail_services, ada["id"], game["id"], _seat_of(game, ada), "finished", game["version"])
    # the job claimed the mail, then died before the SMTP server took it
    with mail_services.store.tx() as tx:
        tx.conn.execute("INSERT INTO mails_sent (key, player_id, game_id, kind, ref, to_address, claimed_at)"
                        " VALUES (%s, %s, %s, 'notification', %s, %s, now() - interval '5 minutes')",
                        (f"notification:{nid}", ada["id"], game["id"], f'{{"notification_id": {nid}}}', ada["email"]))
    before = len(mails.to(ada["email"]))
    assert mail_services.mailer.mail_notification(nid) == "duplicate"  # a retry finds the claim
    assert mail_services.mailer.resend_lost() >= 1
    run_jobs()
    assert len(mails.to(ada["email"])) == before + 1
    assert "Finished" in str(mails.to(ada["email"])[-1]["Subject"])
    assert mail_services.mailer.deliver(f"notification:{nid}") == "already sent"  # a late second re-send
    with mail_services.store.read() as tx:
        assert tx.conn.execute("SELECT sent_at IS NOT NULL FROM mails_sent WHERE key = %s",
                               (f"notification:{nid}",)).fetchone()[0]


def test_messages_inside_the_window_fold_into_one_later_mail_but_a_turn_goes_at_once(
        client, sink, mail_services, two_seat_game, verified_player):
    mails, _ = sink
    ada, bob = verified_player("Ada"), verified_player("Bob")
    game = two_seat_game(ada, bob)
    clock = FixedClock(datetime.now(UTC))  # time passes when the test says so
    mailer = _mailer(mail_services, clock, window_seconds=1.5)
    seat = _seat_of(game, ada)
    first = insert_notification(mail_services, ada["id"], game["id"], seat, "message", game["version"],
                                {"message": {"text": "hello", "seat": 1}, "from": "Bob"}, ref="m1")
    assert mailer.mail_notification(first) == "sent"
    second = insert_notification(mail_services, ada["id"], game["id"], seat, "message", game["version"],
                                 {"message": {"text": "again", "seat": 1}, "from": "Bob"}, ref="m2")
    third = insert_notification(mail_services, ada["id"], game["id"], seat, "message", game["version"],
                                {"message": {"text": "and again", "seat": 1}, "from": "Bob"}, ref="m3")
    turn = insert_notification(mail_services, ada["id"], game["id"], seat, "your_turn", game["version"])
    assert mailer.mail_notification(second) == "coalesced"
    assert mailer.mail_notification(third) == "coalesced"
    # a turn is never held back by the window: it goes out at once
    assert mailer.mail_notification(turn) == "sent"
    assert "Your turn" in str(mails.to(ada["email"])[-1]["Subject"])
    scheduled = ScheduledJobRegistry(mail_services.settings.queue_name, connection=mail_services.redis)
    assert any(j.startswith(f"mail-followup-{ada['id']}-{game['id']}") for j in scheduled.get_job_ids())
    assert len(mails.to(ada["email"])) == 1 + 2  # the verification, the first message, the turn
    clock.at += timedelta(seconds=1.4)  # still inside the window
    assert mailer.mail_followup(ada["id"], game["id"]) == "coalesced"
    clock.at += timedelta(seconds=0.2)  # past it
    assert mailer.mail_followup(ada["id"], game["id"]) == "sent"
    latest = mails.to(ada["email"])[-1]
    assert "Message" in str(latest["Subject"]) and "1 earlier messages" in text_of(latest)
    assert "and again" in text_of(latest)
    assert mailer.mail_followup(ada["id"], game["id"]) == "nothing"
    assert len(mails.to(ada["email"])) == 4


def test_a_your_turn_no_longer_true_is_not_mailed(client, sink, mail_services, two_seat_game, verified_player):
    ada, bob = verified_player("Ada"), verified_player("Bob")
    game = two_seat_game(ada, bob)
    seat = _seat_of(game, ada)
    nid = insert_notification(mail_services, ada["id"], game["id"], seat, "your_turn", game["version"])
    legal = client.get(f"/v1/games/{game['id']}/legal-commands", token=ada["token"]).json
    played = client.post(f"/v1/games/{game['id']}/commands", token=ada["token"],
                         json={"command": legal["commands"][0], "expected_version": legal["version"]})
    assert played.status_code in (200, 201), played.json
    assert mail_services.mailer.mail_notification(nid) == "stale"  # she played in the browser meanwhile


def test_a_turn_played_since_is_not_mailed_though_the_seat_is_to_act_again(
        client, sink, mail_services, two_seat_game, verified_player):
    """A fan-out that came late (beside the computer's move) tells two turns of Ada at once:
    the mail of the first would show the position now, as the second's does, and ask for
    the same move twice. Only the turn she has not played yet is mailed."""
    mails, _ = sink
    ada, bob = verified_player("Ada"), verified_player("Bob")
    game = two_seat_game(ada, bob)
    players, seat_of = {p["id"]: p for p in (ada, bob)}, {p["id"]: _seat_of(game, p) for p in (ada, bob)}
    first = insert_notification(mail_services, ada["id"], game["id"], seat_of[ada["id"]], "your_turn", game["version"])

    def play(player):
        legal = client.get(f"/v1/games/{game['id']}/legal-commands?seat={seat_of[player['id']]}",
                           token=player["token"]).json
        done = client.post(f"/v1/games/{game['id']}/commands", token=player["token"], json={
            "command": legal["commands"][0], "seat": seat_of[player["id"]], "expected_version": legal["version"]})
        assert done.status_code in (200, 201), done.json

    play(ada)
    for _ in range(20):  # the others play until it is Ada's turn again
        now = client.get(f"/v1/games/{game['id']}").json
        if seat_of[ada["id"]] in now["to_act"]:
            break
        play(players[next(s["player_id"] for s in game["seats"] if s["index"] == now["to_act"][0])])
    assert seat_of[ada["id"]] in now["to_act"], now["to_act"]
    again = insert_notification(mail_services, ada["id"], game["id"], seat_of[ada["id"]], "your_turn", now["version"])
    before = len(mails.to(ada["email"]))
    assert mail_services.mailer.mail_notification(first) == "stale"
    assert mail_services.mailer.mail_notification(again) == "sent"
    assert len(mails.to(ada["email"])) == before + 1


def test_no_mail_while_the_player_watches_the_game(client, sink, mail_services, two_seat_game, verified_player):
    ada, bob = verified_player("Ada"), verified_player("Bob")
    game = two_seat_game(ada, bob)
    nid = insert_notification(mail_services, ada["id"], game["id"], _seat_of(game, ada), "your_turn", game["version"])
    mail_services.redis.set(watching_key(game["id"], ada["id"]), "1", ex=30)
    try:
        assert mail_services.mailer.mail_notification(nid) == "watching"
    finally:
        mail_services.redis.delete(watching_key(game["id"], ada["id"]))
    assert mail_services.mailer.mail_notification(nid) == "sent"


def test_daily_digest_one_mail_with_what_came_since_the_last(client, sink, mail_services, run_jobs,
                                                            two_seat_game, verified_player):
    mails, _ = sink
    ada, bob = verified_player("Ada"), verified_player("Bob")
    game = two_seat_game(ada, bob)
    before_switch = insert_notification(mail_services, ada["id"], game["id"], 0, "message", game["version"],
                                        {"text": "old"}, ref="old")
    assert client.patch("/v1/players/me", token=ada["token"], json={"notify": {"digest": "daily"}}).status_code == 200
    ids = [insert_notification(mail_services, ada["id"], game["id"], 0, "message", game["version"],
                               {"text": f"m{i}"}, ref=f"d{i}") for i in range(3)]
    assert mail_services.mailer.mail_notification(ids[0]) == "digest"  # waits for the digest
    count = len(mails.to(ada["email"]))
    assert mail_services.mailer.send_digest(ada["id"]) == "not due"  # a day has not passed
    mailer = _mailer(mail_services, digest_every_seconds=0.0)
    assert ada["id"] in mailer.digests_due()
    assert mailer.send_digest(ada["id"]) == "sent"
    digest = mails.to(ada["email"])[-1]
    assert "digest" in str(digest["Subject"]) and "3 notifications" in str(digest["Subject"])
    assert digest["List-Unsubscribe"] and before_switch != ids[0]
    assert mailer.send_digest(ada["id"]) == "not due"  # nothing new since
    assert len(mails.to(ada["email"])) == count + 1


def _webhook(mail_services, player_id: str, url: str) -> str:
    """A webhook row as the webhooks' service writes it (its secret sealed: not needed here)."""
    hook_id = str(uuid.uuid4())
    with mail_services.store.tx() as tx:
        tx.conn.execute("INSERT INTO webhooks (id, player_id, url, events, secret_sealed, disabled_at,"
                        " disabled_reason) VALUES (%s, %s, %s, %s, %s, now(), 'failing')",
                        (hook_id, player_id, url, ["your_turn"], b"sealed"))
    return hook_id


def test_the_owner_of_a_disabled_webhook_is_told_if_verified(client, sink, mail_services, run_jobs,
                                                             verified_player):
    mails, _ = sink
    ada = verified_player("Ada")
    hook = _webhook(mail_services, ada["id"], "https://hooks.example/ada")
    before = len(mails.to(ada["email"]))
    for _ in range(2):  # as the webhooks queue it (job id webhook-disabled-<id>), twice
        mail_services.jobs.enqueue_job(WEBHOOK_DISABLED, (hook,), f"webhook-disabled-{hook}")
        run_jobs()
    told = mails.to(ada["email"])
    assert len(told) == before + 1
    assert "Webhook disabled" in str(told[-1]["Subject"]) and "https://hooks.example/ada" in text_of(told[-1])
    unverified = client.post("/v1/players", json={"name": "Uma"}).json
    assert mail_services.mailer.webhook_disabled(_webhook(mail_services, unverified["id"], "https://x.example")) \
        == "unverified"
