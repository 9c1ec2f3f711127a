"""Mail settings: verification by a one-time link, notify choices, one-click unsubscribe."""

from __future__ import annotations

import smtplib
import uuid
from email.message import EmailMessage

from tests.mail.conftest import insert_notification, text_of
from tests.refusals import problem


def test_a_new_address_gets_a_verification_mail_and_nothing_else_until_confirmed(
        client, sink, run_jobs, mail_services, two_seat_game, verified_player):
    mails, _ = sink
    other = verified_player("Bob")
    email = f"eve-{uuid.uuid4().hex[:6]}@players.test"
    eve = client.post("/v1/players", json={"name": "Eve", "email": email}).json
    me = client.get("/v1/players/me", token=eve["token"]).json
    assert me["email"] == email and me["email_verified"] is False
    assert me["notify"] == {"your_turn": True, "reminder": True, "finished": True, "messages": True, "digest": "off"}
    run_jobs()
    mail = mails.wait(lambda m: email in str(m["To"]))
    assert "Confirm" in str(mail["Subject"]) and mail["List-Unsubscribe"]
    token = text_of(mail).split("/v1/email/verify/")[1].split()[0]
    with mail_services.store.read() as tx:
        stored = tx.conn.execute("SELECT token_hash FROM email_verifications WHERE player_id = %s",
                                 (eve["id"],)).fetchone()[0]
    assert token not in stored and len(stored) == 64

    # unverified: a your-turn notification is not mailed
    game = two_seat_game(eve, other)
    seat = next(s["index"] for s in game["seats"] if s["player_id"] == eve["id"])
    before = len(mails.to(email))
    nid = insert_notification(mail_services, eve["id"], game["id"], seat, "your_turn", game["version"])
    assert mail_services.mailer.mail_notification(nid) == "unverified"
    assert len(mails.to(email)) == before

    # a wrong token, another player's token, then the right one, then again
    bad = client.post("/v1/players/me/email/verify", token=eve["token"], json={"token": token[:-2] + "aa"})
    assert bad.status_code == 422 and bad.json["code"] == "invalid_token"
    theirs = client.post("/v1/players/me/email/verify", token=other["token"], json={"token": token})
    assert theirs.status_code == 422 and theirs.json["code"] == "invalid_token"
    assert client.get(f"/v1/email/verify/{token}").status_code == 200  # a page, changes nothing
    assert client.get("/v1/players/me", token=eve["token"]).json["email_verified"] is False
    ok = client.post("/v1/players/me/email/verify", token=eve["token"], json={"token": token})
    assert ok.status_code == 200 and ok.json["email_verified"] is True
    again = client.post("/v1/players/me/email/verify", token=eve["token"], json={"token": token})
    assert again.status_code == 409 and again.json["code"] == "token_used"
    assert mail_services.mailer.mail_notification(nid) == "sent"
    assert "Your turn" in str(mails.to(email)[-1]["Subject"])


def test_changing_the_address_unverifies_it_and_an_expired_token_is_refused(client, sink, run_jobs,
                                                                          mail_services, verified_player):
    mails, _ = sink
    ada = verified_player("Ada")
    new = f"ada-new-{uuid.uuid4().hex[:6]}@players.test"
    changed = client.patch("/v1/players/me", token=ada["token"], json={"email": new})
    assert changed.status_code == 200
    assert changed.json["email"] == new and changed.json["email_verified"] is False
    run_jobs()
    token = text_of(mails.wait(lambda m: new in str(m["To"]))).split("/v1/email/verify/")[1].split()[0]
    with mail_services.store.tx() as tx:
        tx.conn.execute("UPDATE email_verifications SET expires_at = now() - interval '1 second'"
                        " WHERE player_id = %s", (ada["id"],))
    expired = client.post("/v1/players/me/email/verify", token=ada["token"], json={"token": token})
    assert expired.status_code == 409 and expired.json["code"] == "token_expired"
    cleared = client.patch("/v1/players/me", token=ada["token"], json={"email": None})
    assert cleared.json["email"] is None and cleared.json["email_verified"] is False


def test_notify_settings_merge_and_are_validated(client, new_mail_player=None):
    player = client.post("/v1/players", json={"name": "Cy"}).json
    token = player["token"]
    response = client.patch("/v1/players/me", token=token, json={"notify": {"reminder": False}})
    assert response.status_code == 200
    assert response.json["notify"] == {"your_turn": True, "reminder": False, "finished": True,
                                       "messages": True, "digest": "off"}
    response = client.patch("/v1/players/me", token=token, json={"notify": {"digest": "daily", "messages": False}})
    assert response.json["notify"]["reminder"] is False and response.json["notify"]["digest"] == "daily"
    assert response.json["notify"]["messages"] is False
    for bad, field in (({"notify": {"digest": "weekly"}}, "notify.digest"),
                       ({"notify": {"your_turn": "yes"}}, "notify.your_turn"),
                       ({"notify": {"sms": True}}, "notify.sms"),
                       ({"email": "not-an-address"}, "email")):
        refused = client.patch("/v1/players/me", token=token, json=bad)
        assert refused.status_code == 422 and refused.json["code"] == "validation_error", bad
        assert field in refused.json["errors"], refused.json
    # the older switch still works: every mail off
    off = client.patch("/v1/players/me", token=token, json={"notify_by_email": False})
    assert off.json["notify_by_email"] is False and off.json["notify"]["digest"] == "daily"


def test_every_mail_carries_one_click_unsubscribe_and_the_post_turns_that_kind_off(
        client, sink, mail_services, two_seat_game, verified_player):
    mails, _ = sink
    ada, bob = verified_player("Ada"), verified_player("Bob")
    game = two_seat_game(ada, bob)
    nid = insert_notification(mail_services, ada["id"], game["id"], 0, "your_turn", game["version"])
    assert mail_services.mailer.mail_notification(nid) == "sent"
    mail = mails.to(ada["email"])[-1]
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    header = str(mail["List-Unsubscribe"])
    url = header.split("<")[1].split(">")[0]
    assert url.startswith("http://entrepot.test/v1/unsubscribe/") and "<mailto:" in header
    wire = mail.raw.decode()
    assert f"List-Unsubscribe: <{url}>, <mailto:" in wire  # raw URLs (no encoded words), as clients read them
    assert url in text_of(mail) and url in mail.get_body(("html",)).get_content()
    path = url.removeprefix("http://entrepot.test")
    assert "Unsubscribe" in client.get(path).text  # the page: a button, nothing changed
    assert client.get("/v1/players/me", token=ada["token"]).json["notify"]["your_turn"] is True
    # RFC 8058: the mail client POSTs the form body, no login
    done = client.post(path, data="List-Unsubscribe=One-Click",
                       headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert done.status_code == 200
    notify = client.get("/v1/players/me", token=ada["token"]).json["notify"]
    assert notify["your_turn"] is False and notify["finished"] is True
    n2 = insert_notification(mail_services, ada["id"], game["id"], 0, "your_turn", game["version"], ref="again")
    assert mail_services.mailer.mail_notification(n2) == "off"
    forged = client.post(path[:-3] + "aaa")
    assert forged.status_code == 422 and forged.json["code"] == "invalid_token"
    other_kind = path.replace(".your_turn.", ".all.")
    problem(client.post(other_kind), 422, "invalid_token")  # the signature binds the kind


def test_the_mailto_of_list_unsubscribe_works_through_the_inbound_listener(
        client, sink, inbox, mail_services, two_seat_game, verified_player):
    mails, _ = sink
    ada, bob = verified_player("Ada"), verified_player("Bob")
    game = two_seat_game(ada, bob)
    nid = insert_notification(mail_services, ada["id"], game["id"], 0, "finished", game["version"])
    assert mail_services.mailer.mail_notification(nid) == "sent"
    mailto = str(mails.to(ada["email"])[-1]["List-Unsubscribe"]).split("<mailto:")[1].rstrip(">")
    address, _, query = mailto.partition("?subject=")
    assert address == "unsubscribe@games.test" and ".finished." in query
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = ada["email"], address, query
    message.set_content("unsubscribe\n")
    with smtplib.SMTP("127.0.0.1", inbox, timeout=30) as smtp:
        smtp.send_message(message)
    notify = client.get("/v1/players/me", token=ada["token"]).json["notify"]
    assert notify["finished"] is False and notify["your_turn"] is True
