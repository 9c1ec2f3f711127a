"""Special rule A « Marins ivres morts » (``drunken_sailors``, 2 and 4 players; switch
``secret_pass``; kontor.fr.txt, « Règles spéciales »):

« Normalement, un joueur doit annoncer qu'il passe avant de choisir une carte, l'autre
joueur peut en profiter pour jouer une carte sans florin. Pour éviter cela, chacun prend au
début, en plus de ses cartes normales, une taverne. Pour passer, on ne le dit plus. A la
place, on prépare en secret la taverne qui signifie "je passe". Après avoir retourné la
carte, le joueur passe, prend le florin, puis reprend la taverne en main. Au lieu de la
taverne on peut utiliser une des cartes spéciales. »

Reading (docs/rules/kontor.md, Special rules A): the "I pass" card is not a card of the
game; a pass is a secret choice (CardChosen ``passing``, ``state.chosen`` holds
``PASS_CHOICE``). Its step "secret_pass" in a Pass's steps (the pass is chosen in secret, before the core's pass income), hook point revealed_cards
(it shows no card), its step "secret_passes" right after the reveal (then the seat passes and takes the florin), the view
(the hand counts the "I pass" card), the redaction (another seat's pass is secret),
redetermine (another seat's choice may be a pass). Tests:
tests/domain/kontor/test_kontor_special_a.py (drunken sailors).
"""

from __future__ import annotations

from domain.common.frozen import replace
from domain.kontor.core import events as ev
from domain.kontor.core.data import SETUP
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.state import PASS_CHOICE, KontorState


def secret_pass(log, seat: int) -> bool:
    """« Pour passer, on ne le dit plus. A la place, on prépare en secret la taverne qui
    signifie "je passe" »."""
    log.emit(ev.CardChosen(seat, None, passing=True))  # registered under this rule only
    return True


def revealed_cards(state: KontorState, shown: tuple | None = None) -> tuple[int | None, ...]:
    """What the reveal shows (``shown``: the cards as other rules show them): a secret
    pass shows no card."""
    return tuple(None if c == PASS_CHOICE else c for c in (shown or state.chosen))


def after_reveal(log, chosen_before: tuple) -> None:
    """« Après avoir retourné la carte, le joueur passe, prend le florin, puis reprend la
    taverne en main »."""
    for seat, c in enumerate(chosen_before):
        if c == PASS_CHOICE:
            florins = min(SETUP["pass_income"], log.state.treasury)
            log.emit(ev.Passed(seat, florins))


def hand_size(state: KontorState, seat: int) -> int:
    """The "I pass" card is in the hand unless it is laid."""
    n = len(state.hands[seat])
    if state.options.secret_pass and state.chosen and state.chosen[seat] != PASS_CHOICE:
        n += 1
    return n


def view_keys(state: KontorState, out: dict, cells, viewer: int | None) -> None:
    """Public: each hand with the "I pass" card; the seat's own: whether it passes."""
    if not state.options.secret_pass:
        return
    for p in out["players"]:
        p["hand_size"] = hand_size(state, p["seat"])
    if viewer is None or "you" not in out:
        return
    you = out["you"]
    you["pass_card"] = state.chosen[viewer] != PASS_CHOICE
    you["passing"] = state.chosen[viewer] == PASS_CHOICE
    if you["chosen"] == PASS_CHOICE:
        you["chosen"] = None


def redact(event, viewer: int | None, data: dict) -> dict:
    """Another seat's choice never tells whether it is a pass."""
    if type(event) is ev.CardChosen and event.seat != viewer:
        data["passing"] = False
    return data


def redetermine(original: KontorState, observer, rng, slot, state: KontorState) -> KontorState:
    """While choosing, another seat's choice may be any card of its hand or a pass."""
    if not (state.options.secret_pass and state.phase == "choose"):
        return state
    hands = [list(h) for h in state.hands]
    chosen = list(state.chosen)
    for s in range(state.seat_count):
        if s == observer or chosen[s] is None:
            continue
        options = hands[s] + ([chosen[s]] if chosen[s] != PASS_CHOICE else [])
        k = rng.below(len(options) + 1)
        if k == len(options):
            chosen[s] = PASS_CHOICE
            hands[s] = options
        else:
            chosen[s] = options[k]
            hands[s] = options[:k] + options[k + 1 :]
    return replace(state, hands=tuple(tuple(h) for h in hands), chosen=tuple(chosen))


def register(hooks: Hooks) -> None:
    hooks.add_step("secret_pass", secret_pass, before="pass_income")
    hooks.revealed_cards.append(revealed_cards)
    hooks.add_step("secret_passes", lambda log, chosen: after_reveal(log, chosen) or False, after="reveal")
    hooks.add_view(view_keys, after="you")
    hooks.redact.append(redact)
    hooks.redetermine.append(redetermine)
