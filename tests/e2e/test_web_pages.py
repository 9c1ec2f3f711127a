"""Every page of the web client checked by axe-core (no serious or critical violation), the
front page a visitor sees, the dashboard, settings, resigning, and the French page."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.e2e.web_helpers import (
    ARTIFACTS,
    PHONE,
    create_game,
    sign_up,
    wait_until,
)

pytestmark = pytest.mark.slow(seconds=10)


def no_serious_violation(page, name: str) -> None:
    # a game page never goes quiet (its stream stays open): wait until it is drawn
    wait_until(page, "() => (m => !m || (m.dataset.busy !== '1' && !m.textContent.startsWith('Loading')))"
                     "(document.querySelector('#main'))")
    page.wait_for_timeout(300)
    results = Axe().run(page)
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
           for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    assert not bad, f"{name}: {bad}"


def test_every_page_passes_axe_and_a_player_resigns(server, browser):
    page = browser.new_context().new_page()
    page.goto(server + "/")
    # a visitor: the three titles with a picture and a sentence, open games, games to watch
    titles = page.locator("ul.titles li")
    expect(titles).to_have_count(3)
    for name in ("Kontor", "Speicherstadt", "Amsterdam"):
        expect(page.locator("ul.titles")).to_contain_text(name)
    expect(page.get_by_role("heading", name="Games to watch")).to_be_visible()
    expect(page.get_by_role("heading", name="Open seats")).to_be_visible()
    assert page.locator("link[rel=manifest]").count() == 1
    assert page.request.get(server + "/web/manifest.webmanifest").json()["icons"]
    assert page.request.get(server + "/web/img/icon-192.png").ok
    page.screenshot(path=str(ARTIFACTS / "front-page.png"), full_page=True)
    no_serious_violation(page, "front page")

    sign_up(page, server, "Axel")
    no_serious_violation(page, "dashboard")
    # the new-game form comes from options_schema: lists, never a JSON box
    page.locator("#new-title").select_option("amsterdam")
    expect(page.locator("[data-option='rounds']")).to_be_visible()
    expect(page.locator("#new-options")).to_contain_text("skilled workers")
    assert page.locator("textarea").count() == 0
    page.locator("#new-title").select_option("kontor")
    page.locator("[data-option='variant']").select_option("team")
    expect(page.locator("#new-count option")).to_have_count(1)  # the team game is for 4
    page.locator("[data-option='variant']").select_option("basic")

    game_id = create_game(page, "kontor", {"variant": "basic"}, ["easy"])
    expect(page.locator("#board svg")).to_be_visible()
    page.get_by_text("Legend and rules").click()
    expect(page.locator("#help")).to_contain_text("a florin on the card")
    no_serious_violation(page, "game page")
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()
    expect(page.locator("#status")).to_contain_text("Computer", ignore_case=True)
    expect(page.locator("#status")).to_contain_text("won (resigned)")

    page.goto(f"{server}/#/")
    expect(page.locator("#dashboard")).to_contain_text("won (")
    page.goto(f"{server}/#/settings")
    expect(page.get_by_role("heading", name="Vacation")).to_be_visible()
    no_serious_violation(page, "settings")
    page.locator("#email").fill("axel@example.org")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#notice")).to_contain_text("Saved.")

    # French, from the switch (and kept for the next visit)
    page.goto(f"{server}/#/")
    page.get_by_label("Language").select_option("fr")
    expect(page.get_by_role("heading", name="Vos parties")).to_be_visible()
    assert page.evaluate("document.documentElement.lang") == "fr"
    no_serious_violation(page, "dashboard in French")
    page.goto(f"{server}/#/games/{game_id}")
    expect(page.locator("#status")).to_contain_text("Terminée.")
    # every part of the page, not only its main headings
    expect(page.get_by_role("heading", name="Pendule et reprise")).to_be_visible()
    expect(page.locator("#status")).to_contain_text("a gagné (par abandon)")
    page.get_by_text("Légende et règles").click()
    expect(page.locator("#help")).to_contain_text("Règles")
    page.goto(f"{server}/#/settings")
    expect(page.get_by_role("heading", name="Vacances")).to_be_visible()
    expect(page.get_by_role("button", name="Prendre des vacances")).to_be_visible()
    expect(page.locator("#vacation-state")).to_contain_text("Pas en vacances.")
    no_serious_violation(page, "settings in French")
    page.goto(f"{server}/#/lobby")
    expect(page.get_by_role("heading", name="Proposer une partie ouverte")).to_be_visible()
    page.context.close()


def test_french_from_the_browser_on_a_phone(server, browser):
    page = browser.new_context(viewport=PHONE, locale="fr-FR").new_page()
    page.goto(server + "/")
    expect(page.get_by_role("heading", name="Nouveau joueur")).to_be_visible()
    no_serious_violation(page, "front page in French on a phone")
    page.context.close()


def test_the_email_confirmation_page_is_styled_like_the_client(server, browser):
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{server}/v1/email/verify/not-a-real-token")
    expect(page.get_by_role("heading", name="Confirm your email address")).to_be_visible()
    # the client's stylesheet: the brown header band, and a way back to the games
    assert page.evaluate("getComputedStyle(document.querySelector('header')).backgroundColor") == "rgb(59, 47, 36)"
    expect(page.get_by_role("link", name="Back to your games")).to_be_visible()
    no_serious_violation(page, "email confirmation page")
    page.context.close()
