"""Boards as pictures: golden SVGs per title, well-formed, and never more than the view.

Set ENTREPOT_UPDATE_GOLDEN=1 to rewrite the golden pictures after a deliberate change of
the drawings (then look at them: tests/golden/boards/*.svg open in any browser).
"""

from __future__ import annotations

import os
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from boards import render
from domain.amsterdam import data as amsterdam_data
from domain.amsterdam.commands import TakeBlock
from domain.amsterdam.state import ACTIONS
from domain.decider import SPECTATOR, Issued
from domain.registry import titles
from domain.rng import Rng
from tests.domain.amsterdam.helpers import acting, at_phase, play, vector, with_seat
from tests.domain.kontor.helpers import RED, cross_layout, dock, take_turn, water, with_warehouses
from tests.domain.speicherstadt.test_purchase import BEIGE, ORANGE, VIOLET, Column, _purchase

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "boards"
SVG = "{http://www.w3.org/2000/svg}"
SEED = "5e" * 32

# (golden name, title, options, seats, commands played before the picture)
POSITIONS = [
    ("kontor-basic", "kontor", {"variant": "basic"}, 2, 14),
    ("kontor-free-for-all", "kontor", {"variant": "free_for_all"}, 3, 9),
    ("kontor-team", "kontor", {"variant": "team"}, 4, 12),
    ("speicherstadt-3", "speicherstadt", {}, 3, 20),
    ("speicherstadt-5-start", "speicherstadt", {}, 5, 0),
    ("amsterdam-3", "amsterdam", {}, 3, 80),
    ("amsterdam-solo", "amsterdam", {}, 1, 40),
    ("amsterdam-4-expansions", "amsterdam", {"expansions": ["skilled_workers", "black_market"]}, 4, 60),
]


def played(title_id: str, options: dict, seats: int, moves: int, seed: str = SEED):
    """A reproducible position: ``moves`` random legal commands from a fixed seed."""
    game = titles()[title_id]
    state = game.fold(game.start(game.parse_options(options, seats), seats, seed), None)
    chooser = random.Random(seats * 1000 + moves)
    for _ in range(moves):
        seat = chooser.choice(sorted(game.to_act(state)))
        command = chooser.choice(game.legal_commands(state, seat))
        state = game.fold(game.decide(state, Issued(seat, "2026-11-23T00:00:00Z", command)), state)
    return game, state


def rulebook_sector_example():
    """« Quand un secteur est entièrement terminé, on détermine immédiatement le joueur qui
    l'emporte. » ; « y dépose à titre de témoin l'un de ses gardiens » (Kontor, Les
    secteurs): red closes its one-dock sector with a canal; it is scored and guarded."""
    layout = cross_layout() | {(1, 1): dock(RED, "wine"), (2, 1): water(n=3)}
    _, state = take_turn(layout, water(n=0), (1, 2), pre=with_warehouses(layout))
    return titles()["kontor"], state


def rulebook_block_example():
    """Amsterdam L504-506: « Mareike achète un bloc de maisons pour un coût de deux
    ressources roses ... pose la tuile Marchandise sur son entrepôt provisoire ... une de
    ses Armoiries »: the pink block of cost 2 shows her coat of arms."""
    state = at_phase(ACTIONS)
    seat = acting(state)
    block = next(b for b in amsterdam_data.BLOCKS.values() if b.colour == "pink" and b.cost == 2)
    state = with_seat(state, seat, reserve=vector("pink", "pink"))
    return titles()["amsterdam"], play(state, TakeBlock(block.id, ("pink", "pink"))), block.id


def speicherstadt_rulebook_offer():
    """Speicherstadt, Achat: « Exemple: Beige peut acheter la carte pour 4 pièces ... »: the
    office card's column holds the workers beige, orange, beige, violet (in that order)."""
    state = _purchase([Column("A-office", workers=(BEIGE, ORANGE, BEIGE, VIOLET)),
                       Column("A-warehouse", workers=(ORANGE,))])
    return titles()["speicherstadt"], state


def picture(game, state, viewer) -> str:
    return render(game.id, game.view(state, viewer), game.component_data())


@pytest.mark.parametrize("name,title_id,options,seats,moves", POSITIONS, ids=[p[0] for p in POSITIONS])
def test_golden_pictures(name, title_id, options, seats, moves):
    game, state = played(title_id, options, seats, moves)
    for viewer, suffix in ((0, "seat0"), (SPECTATOR, "spectator")):
        drawn = picture(game, state, viewer)
        ET.fromstring(drawn)  # well-formed XML
        golden = GOLDEN / f"{name}-{suffix}.svg"
        if os.environ.get("ENTREPOT_UPDATE_GOLDEN"):
            golden.write_text(drawn, encoding="utf-8")
        assert drawn == golden.read_text(encoding="utf-8"), f"{golden.name} changed"


def test_golden_rulebook_example():
    game, state = rulebook_sector_example()
    drawn = picture(game, state, SPECTATOR)
    golden = GOLDEN / "kontor-rulebook-sectors.svg"
    if os.environ.get("ENTREPOT_UPDATE_GOLDEN"):
        golden.write_text(drawn, encoding="utf-8")
    assert drawn == golden.read_text(encoding="utf-8"), f"{golden.name} changed"
    guardians = [c for c in ET.fromstring(drawn).iter(f"{SVG}circle") if c.get("class") == "guardian"]
    assert len(guardians) == 1  # the scored sector's guardian, in red


HIDDEN = [p for p in POSITIONS if p[4]]  # positions after some play: something is hidden


def test_golden_speicherstadt_rulebook_example():
    game, state = speicherstadt_rulebook_offer()
    drawn = picture(game, state, SPECTATOR)
    golden = GOLDEN / "speicherstadt-rulebook-offer.svg"
    if os.environ.get("ENTREPOT_UPDATE_GOLDEN"):
        golden.write_text(drawn, encoding="utf-8")
    assert drawn == golden.read_text(encoding="utf-8"), f"{golden.name} changed"
    column = next(g for g in ET.fromstring(drawn).iter(f"{SVG}g") if g.get("data-column") == "0")
    workers = [c for c in column.iter(f"{SVG}circle")]
    assert len(workers) == 4  # beige, orange, beige, violet


def test_golden_amsterdam_rulebook_example():
    game, state, block = rulebook_block_example()
    drawn = picture(game, state, SPECTATOR)
    golden = GOLDEN / "amsterdam-rulebook-block.svg"
    if os.environ.get("ENTREPOT_UPDATE_GOLDEN"):
        golden.write_text(drawn, encoding="utf-8")
    assert drawn == golden.read_text(encoding="utf-8"), f"{golden.name} changed"
    owned = [g for g in ET.fromstring(drawn).iter(f"{SVG}g") if g.get("data-block") == block]
    assert "owned by seat" in "".join(owned[0].itertext())


@pytest.mark.parametrize("name,title_id,options,seats,moves", HIDDEN, ids=[p[0] for p in HIDDEN])
def test_a_picture_never_depends_on_what_its_viewer_cannot_see(name, title_id, options, seats, moves):
    """The attack: re-deal everything the viewer cannot see; the picture must not change."""
    game, state = played(title_id, options, seats, moves)
    for viewer in (SPECTATOR, 0):
        drawn = picture(game, state, viewer)
        for salt in range(3):
            other = game.redetermine(state, viewer, Rng(("ab" * 31) + f"{salt:02x}"))
            assert picture(game, other, viewer) == drawn


def test_the_control_a_full_view_would_leak():
    """Control for the test above: the unredacted state does change under a re-deal."""
    game, state = played("kontor", {"variant": "basic"}, 2, 14)
    other = game.redetermine(state, SPECTATOR, Rng("cd" * 32))
    assert game.view(other, 1) != game.view(state, 1)


def test_kontor_hands_are_backs_for_others_and_faces_for_their_owner():
    game, state = played("kontor", {"variant": "basic"}, 2, 14)
    own = ET.fromstring(picture(game, state, 0))
    hand = [g for g in own.iter(f"{SVG}g") if g.get("class") == "hand"]
    assert hand and len(list(hand[0])) == len(game.view(state, 0)["you"]["hand"])
    spectator = ET.fromstring(picture(game, state, SPECTATOR))
    assert not [g for g in spectator.iter(f"{SVG}g") if g.get("class") == "hand"]


def test_legal_cells_are_marked_for_clients_to_click():
    game, state = played("kontor", {"variant": "free_for_all"}, 3, 7)  # seat 1 places
    drawn = ET.fromstring(picture(game, state, 1))
    marked = {(int(r.get("data-x")), int(r.get("data-y")))
              for r in drawn.iter(f"{SVG}rect") if r.get("class") == "legal-cell"}
    legal = {(c["x"], c["y"]) for c in game.view(state, 1)["board"]["legal_cells"]}
    assert marked == legal and marked


def test_a_title_without_a_drawing_gets_a_summary():
    drawn = render("no-such-title", {"title": "x", "round": 3, "you": {"secret": 1}})
    assert "round: 3" in drawn and "secret" not in drawn
