"""What mail links and mails show a person: words, never HTTP verbs, API paths or raw
JSON. A second click on "Confirm" (a browser asking for HTML) gets a page saying the
address is confirmed already; an API client still gets the problem document."""

from __future__ import annotations

import re
import uuid

from tests.mail.conftest import text_of

BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
DEVELOPER_WORDS = re.compile(r"\b(GET|POST|PUT|PATCH|DELETE)\b|/v1/players|\{\"")


def _speaks_to_players(text: str) -> None:
    assert not DEVELOPER_WORDS.search(text), text


def test_the_confirmation_mail_and_pages_speak_to_players(client, sink, run_jobs):
    mails, _ = sink
    email = f"pat-{uuid.uuid4().hex[:8]}@players.test"
    created = client.post("/v1/players", json={"name": "Pat", "email": email})
    assert created.status_code == 201
    run_jobs()
    mail = mails.wait(lambda m: email in str(m["To"]) and "Confirm" in str(m["Subject"]))
    text = text_of(mail)
    _speaks_to_players(text.split("--\nUnsubscribe:")[0])
    link = text.split("http://entrepot.test")[1].split()[0]
    page = client.get(link)
    assert page.status_code == 200 and "Confirm my address" in page.text
    first = client.post(link, headers=BROWSER)
    assert first.status_code == 200 and "Address confirmed" in first.text
    again = client.post(link, headers=BROWSER)  # the button clicked a second time
    assert again.status_code == 409 and again.headers["Content-Type"].startswith("text/html")
    assert "Already confirmed" in again.text
    _speaks_to_players(again.text)
    forged = client.post(link[:-3] + "aaa", headers=BROWSER)
    assert forged.status_code == 422 and "not valid" in forged.text
    api = client.post(link)  # an API client: the problem document, as before
    assert api.status_code == 409 and api.json["code"] == "token_used"


def test_the_unsubscribe_page_speaks_to_players(client, sink, verified_player):
    mails, _ = sink
    ada = verified_player("Ada")
    mail = mails.to(ada["email"])[-1]
    url = str(mail["List-Unsubscribe"]).split("<")[1].split(">")[0]
    path = url.removeprefix("http://entrepot.test")
    done = client.post(path, headers=BROWSER, data="List-Unsubscribe=One-Click",
                       content_type="application/x-www-form-urlencoded")
    assert done.status_code == 200 and "Unsubscribed" in done.text
    _speaks_to_players(done.text)
    forged = client.post(path[:-3] + "aaa", headers=BROWSER)
    assert forged.status_code == 422 and forged.headers["Content-Type"].startswith("text/html")
    _speaks_to_players(forged.text)
