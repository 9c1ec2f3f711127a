"""Moves by email reply, through the built-in inbound SMTP listener and `entrepot mail-in`:
a numbered reply plays and is confirmed; a reply sent before the opponent moved still
plays when its move is still legal; replayed and illegal replies are each refused with an
answer mail, forged ones without any, and nothing is appended."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from email.message import EmailMessage

from service.mail import content, records
from tests.conftest import ROOT
from tests.mail.conftest import insert_notification, reply, text_of


def _version(client, game, player) -> int:
    return client.get(f"/v1/games/{game['id']}", token=player["token"]).json["version"]


def _your_turn_mail(client, sink, mail_services, game, player):
    current = client.get(f"/v1/games/{game['id']}", token=player["token"]).json
    seat = next(s["index"] for s in current["seats"] if s["player_id"] == player["id"])
    nid = insert_notification(mail_services, player["id"], game["id"], seat, "your_turn", current["version"])
    assert mail_services.mailer.mail_notification(nid) == "sent"
    return sink[0].to(player["email"])[-1], seat


def _played_by(mail_services, game, version) -> dict | None:
    """The sender of the command decided at ``version``, if one was."""
    with mail_services.store.read() as tx:
        row = tx.conn.execute("SELECT sender FROM commands WHERE game_id = %s AND version = %s",
                              (game["id"], version)).fetchone()
    return row[0] if row else None


def _answer(sink, player, count_before):
    answers = [m for m in sink[0].to(player["email"]) if "Not played" in str(m["Subject"])]
    assert len(answers) == count_before + 1, [str(m["Subject"]) for m in answers]
    return answers[-1]


def _answers(sink, player) -> int:
    return len([m for m in sink[0].to(player["email"]) if "Not played" in str(m["Subject"])])


def test_a_numbered_reply_plays_that_move_and_a_replay_is_refused(client, sink, inbox, mail_services,
                                                                 two_seat_game, verified_player):
    ada, bob = verified_player("Ada"), verified_player("Bob")
    game = two_seat_game(ada, bob)
    mail, seat = _your_turn_mail(client, sink, mail_services, game, ada)
    version = _version(client, game, ada)
    legal = client.get(f"/v1/games/{game['id']}/legal-commands", token=ada["token"]).json["commands"]
    reply(inbox, mail, "2", sender="forged-from@elsewhere.test")  # From proves nothing: the token does
    events = client.get(f"/v1/games/{game['id']}/events?after={version}", token=ada["token"]).json["events"]
    assert _version(client, game, ada) > version and events
    with mail_services.store.read() as tx:
        sent = tx.conn.execute("SELECT command, sender FROM commands WHERE game_id = %s AND version = %s",
                               (game["id"], version)).fetchone()
    assert sent[0] == legal[1] and sent[1] == {"kind": "player", "player_id": ada["id"]}
    before = _answers(sink, ada)
    reply(inbox, mail, "1")  # the same reply address again
    answer = _answer(sink, ada, before)
    assert "(replayed)" in text_of(answer) and "used already" in text_of(answer)
    assert _version(client, game, ada) == events[-1]["seq"]
    # Bob has still to choose: the answer shows the game as it is, with no move to reply with
    assert "It is not your turn now" in text_of(answer) and answer["Reply-To"] is None
    assert "Scores: " in text_of(answer) and any(p.get_content_type() == "image/png" for p in answer.walk())
    # the played reply was confirmed in one short mail, in words
    confirmed = [m for m in sink[0].to(ada["email"]) if str(m["Subject"]).startswith("Played")]
    assert len(confirmed) == 1 and "Played in Kontor game" in text_of(confirmed[0])
    assert "choose card" in text_of(confirmed[0])


def test_the_confirmation_carries_the_next_turn_only_when_the_move_itself_gave_it(
        client, sink, inbox, mail_services, two_seat_game, verified_player):
    """A turn that others' moves gave the seat has its own "your turn" mail (the fan-out's):
    the confirmation, when written after them, must not ask for the same move again. Only a
    turn the move itself gave (which no notification tells) rides along with it."""
    ada, bob = verified_player("Ada"), verified_player("Bob")
    game = two_seat_game(ada, bob)
    mail, _ = _your_turn_mail(client, sink, mail_services, game, ada)
    reply(inbox, mail, "1")  # Ada chooses her card; Bob has still to choose his
    with mail_services.store.read() as tx:
        refs = [r[0] for r in tx.conn.execute("SELECT ref FROM mails_sent WHERE game_id = %s AND kind = 'played'",
                                             (game["id"],)).fetchall()]
    assert len(refs) == 1 and refs[0]["again"] is False, refs
    bob_seat = next(s["index"] for s in game["seats"] if s["player_id"] == bob["id"])
    legal = client.get(f"/v1/games/{game['id']}/legal-commands?seat={bob_seat}", token=bob["token"]).json
    assert client.post(f"/v1/games/{game['id']}/commands", token=bob["token"], json={
        "command": legal["commands"][0], "seat": bob_seat, "expected_version": legal["version"]}).status_code == 201
    # whoever places first is now to act by Bob's move: a confirmation written now
    now = client.get(f"/v1/games/{game['id']}", token=ada["token"]).json
    placer = now["to_act"][0]
    player = ada if next(s["player_id"] for s in now["seats"] if s["index"] == placer) == ada["id"] else bob
    mailer = mail_services.mailer
    with mail_services.store.read() as tx:
        recipient = records.recipient(tx, player["id"])
        args = (tx, mailer.games, mailer.tokens, mailer.settings.links, recipient, game["id"], placer,
                now["version"], "choose card 1")
        by_others = content.played(*args, to_act_after=False)
        by_itself = content.played(*args, to_act_after=True)
    assert by_others.reply_to is None and "You will get a mail when it is your turn again" in by_others.text
    assert by_itself.reply_to and "It is your turn again" in by_itself.text


def test_a_reply_sent_before_the_opponent_moved_is_played_when_its_move_is_still_legal(
        client, sink, inbox, mail_services, two_seat_game, verified_player):
    ada, bob = verified_player("Ada"), verified_player("Bob")
    game = two_seat_game(ada, bob)
    mail, seat = _your_turn_mail(client, sink, mail_services, game, ada)
    listed = client.get(f"/v1/games/{game['id']}/legal-commands", token=ada["token"]).json["commands"]
    # the game moves on meanwhile (Bob plays in the browser: kontor's first choice is simultaneous)
    bob_seat = 1 - seat
    legal = client.get(f"/v1/games/{game['id']}/legal-commands?seat={bob_seat}", token=bob["token"]).json
    played = client.post(f"/v1/games/{game['id']}/commands", token=bob["token"],
                         json={"command": legal["commands"][0], "expected_version": legal["version"]})
    assert played.status_code in (200, 201), played.json
    version = _version(client, game, ada)
    before = _answers(sink, ada)
    reply(inbox, mail, "2")  # the mail's version is behind: what counts is that move 2 is still legal
    assert _answers(sink, ada) == before
    assert _version(client, game, ada) > version
    assert _played_by(mail_services, game, version) == {"kind": "player", "player_id": ada["id"]}
    with mail_services.store.read() as tx:
        sent = tx.conn.execute("SELECT command FROM commands WHERE game_id = %s AND version = %s",
                               (game["id"], version)).fetchone()[0]
    assert sent == listed[1]  # the number means the move of that mail


def test_forged_and_illegal_replies_are_refused_and_nothing_is_played(client, sink, inbox, mail_services,
                                                                      two_seat_game, verified_player):
    ada, bob = verified_player("Ada"), verified_player("Bob")
    game = two_seat_game(ada, bob)
    mail, _ = _your_turn_mail(client, sink, mail_services, game, ada)
    version = _version(client, game, ada)
    token = str(mail["Reply-To"]).split("+")[1].split("@")[0]
    number, mac = token.split("-")
    # a forged token: right id, wrong MAC; never answered, not even to a verified player's
    # From (tests/mail/test_inbound_attacks.py: that was a way to mail players on our name)
    before = len(sink[0].to(ada["email"]))
    reply(inbox, mail, "1", sender=ada["email"].upper(), to=f"play+{number}-{'a' * len(mac)}@games.test")
    # no token at all
    reply(inbox, mail, "1", sender=ada["email"], to="play@games.test")
    assert len(sink[0].to(ada["email"])) == before
    # a stranger's forgery is not answered: the listener mails no one who is not a player
    stranger = "mallory@forgers.test"
    reply(inbox, mail, "1", sender=stranger, to=f"play+{number}-{'b' * len(mac)}@games.test")
    assert sink[0].to(stranger) == []
    # illegal: a number out of range, words, a command the rules refuse
    for line, says in (("99", "has no move 99"), ("yes please", "neither a move's number"),
                       (json.dumps({"type": "ChooseCard", "card": 9999}), "cannot be played now")):
        before = _answers(sink, ada)
        reply(inbox, mail, line)
        answer = _answer(sink, ada, before)
        assert "(illegal)" in text_of(answer) and says in text_of(answer)
        # the subject stays the game's, however often one answers the answers
        assert str(answer["Subject"]) == f"Not played: Kontor game {game['id'][:8]}"
    assert _version(client, game, ada) == version
    # the token survives a refused move: the right answer still plays
    legal = client.get(f"/v1/games/{game['id']}/legal-commands", token=ada["token"]).json["commands"]
    reply(inbox, mail, json.dumps(legal[-1]))
    assert _version(client, game, ada) > version
    assert _played_by(mail_services, game, version) == {"kind": "player", "player_id": ada["id"]}


def test_mail_in_reads_one_message_on_stdin(client, sink, mail_services, two_seat_game, verified_player):
    ada, bob = verified_player("Ada"), verified_player("Bob")
    game = two_seat_game(ada, bob)
    mail, _ = _your_turn_mail(client, sink, mail_services, game, ada)
    version = _version(client, game, ada)
    message = EmailMessage()
    message["From"] = ada["email"]
    message["To"] = "entrepot@games.test"
    message["Delivered-To"] = str(mail["Reply-To"])  # as an MTA's pipe delivers it
    message["Subject"] = "Re: your turn"
    message.set_content("1\n")
    settings = mail_services.settings
    env = {**os.environ, "DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url,
           "ENTREPOT_SMTP_URL": settings.smtp_url, "ENTREPOT_MAIL_FROM": settings.mail_from,
           "ENTREPOT_MAIL_SECRET": settings.mail_secret, "ENTREPOT_QUEUE": settings.queue_name,
           "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "service.runtime.entry", "mail-in"]
    done = subprocess.run(command, input=message.as_bytes(), env=env, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert done.stdout.decode().strip() == "played"
    assert _played_by(mail_services, game, version) == {"kind": "player", "player_id": ada["id"]}
    # the same message again: refused (replayed) with an answer mail, still exit 0
    before = _answers(sink, ada)
    again = subprocess.run(command, input=message.as_bytes(), env=env, capture_output=True, timeout=60)
    assert again.returncode == 0 and again.stdout.decode().strip() == "replayed"
    assert "(replayed)" in text_of(_answer(sink, ada, before))
    garbage = subprocess.run(command, input=b"", env=env, capture_output=True, timeout=60)
    assert garbage.returncode == 1


def test_an_expired_reply_address_plays_nothing_and_the_mail_said_until_when(
        client, sink, inbox, mail_services, two_seat_game, verified_player):
    ada, bob = verified_player("Ada"), verified_player("Bob")
    game = two_seat_game(ada, bob)
    mail, _ = _your_turn_mail(client, sink, mail_services, game, ada)
    assert "This reply address plays one move and works until " in text_of(mail)
    version = _version(client, game, ada)
    token_id = int(str(mail["Reply-To"]).split("+")[1].split("-")[0])
    with mail_services.store.tx() as tx:
        until = tx.conn.execute("SELECT expires_at - created_at FROM reply_tokens WHERE id = %s",
                                (token_id,)).fetchone()[0]
        assert until.days == 30
        tx.conn.execute("UPDATE reply_tokens SET expires_at = now() - interval '1 second' WHERE id = %s",
                        (token_id,))
    before = _answers(sink, ada)
    reply(inbox, mail, "1")
    answer = _answer(sink, ada, before)
    assert "(expired)" in text_of(answer) and _version(client, game, ada) == version
    # still her turn: the answer carries the position again, with its address renewed
    # (the same position, so the same token, expiring 30 days from now)
    assert answer["Reply-To"] and "Your moves:" in text_of(answer)
    with mail_services.store.read() as tx:
        assert tx.conn.execute("SELECT expires_at > now() + interval '29 days' FROM reply_tokens"
                               " WHERE id = %s", (token_id,)).fetchone()[0]
    reply(inbox, answer, "1")
    assert _version(client, game, ada) > version
