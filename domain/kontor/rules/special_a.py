"""Special rules A of Kontor (« Règles spéciales », « Variantes avec les cartes spéciales »):
poverty, justice, drunken_sailors, free_choice, choice_of_goods, first_choice,
flood_choice, buy_special_cards, bridge_and_flood, great_flood, final_sprint.

Each rule reads its Options switch (rule_settings.py sets them). decide.py, evolve.py,
setup.py, view.py and policy.py call the functions below; the round's flow stays in
decide.py, reached through the decide context each step receives (``log.advance()``,
``log.end_game(reason)``...).
See docs/rules/kontor.md (Special rules A).
"""

from __future__ import annotations

from domain.common.frozen import replace
from domain.decider import RuleViolation
from domain.kontor.core import events as ev
from domain.kontor.core.board import (
    occupancy,
)
from domain.kontor.core.commands import (
    BuySpecialCard,
    ChooseGood,
    ChooseStartingDock,
    DrawCard,
    PlaceWater,
    TakeFromPile,
)
from domain.kontor.core.data import CARDS, GOODS, SETUP, special_cards
from domain.kontor.core.free_draw import free_draw_piles
from domain.kontor.core.placement import placement_cells, placement_error
from domain.kontor.core.scoring import (
    score_closed_sectors,
)
from domain.kontor.core.state import PASS_CHOICE, Cell, KontorState
from domain.kontor.core.versions import FREE_DRAW_BY_PRINTED_KIND
from domain.kontor.rules.settings import special_rule_errors, special_rule_settings

RULE_COMMANDS = (ChooseStartingDock, BuySpecialCard, ChooseGood, DrawCard, TakeFromPile, PlaceWater)
RULE_EVENTS = (
    ev.StartingDockChosen,
    ev.DockPilesFormed,
    ev.BuyingOpened,
    ev.BuyDeclared,
    ev.SpecialCardBought,
    ev.BuyingClosed,
    ev.StepOpened,
    ev.StepClosed,
    ev.PilePickPaid,
    ev.WaterPlacedForFlood,
    ev.FloodDiscarded,
    ev.WaterFilled,
)


def _set(values: tuple, index: int, value) -> tuple:
    return values[:index] + (value,) + values[index + 1 :]


def _without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


# ---------------------------------------------------------------------------------------
# setup (setup.py:start)


def special_setup(options, seat_count: int, rng, dock_hands: list, piles: list, specials: list):
    """Justice: no dock in hand yet, the whole shuffled deck is the pile (the seat picks
    three, the rest stays in its shuffled order: « On bat ensuite les cartes restantes »).
    Pont et inondation, Crue exceptionnelle: special cards of one's colour in hand.
    Achat de cartes spéciales: the six special cards shuffled face down.
    Returns (GameStarted extra fields, events that follow GameStarted)."""
    fields: dict = {}
    follow: list = []
    if options.starting_dock_choice:
        for seat in range(seat_count):
            piles[seat] = tuple(dock_hands[seat]) + tuple(piles[seat])
            dock_hands[seat] = ()
        fields["phase"] = "starting_docks"
    for seat, extra in enumerate(options.hand_specials):
        if seat < seat_count:
            specials[seat] = tuple(specials[seat]) + tuple(extra)
    if options.special_price:
        # « Les 6 cartes spéciales sont brouillées et placées faces cachées en une pile »
        fields["specials_pile"] = tuple(rng.shuffle(special_cards()))
        if not options.starting_dock_choice:
            buyers = tuple(
                s for s in range(seat_count) if options.starting_money >= options.special_price
            )
            if buyers:
                follow.append(ev.BuyingOpened(buyers))
    return fields, follow


# ---------------------------------------------------------------------------------------
# evolve (only records)


def evolve_started(state: KontorState, event) -> KontorState:
    n = state.seat_count
    return replace(
        state,
        phase=event.phase,
        specials_pile=event.specials_pile,
        starting_choice=((),) * n if event.phase == "starting_docks" else (),
        buy_wants=(None,) * n if event.specials_pile else (),
    )


def evolve_rule(state: KontorState, event) -> KontorState:
    t = type(event)
    n = state.seat_count
    if t is ev.StartingDockChosen:
        seat = event.seat
        return replace(
            state,
            starting_choice=_set(
                state.starting_choice, seat, state.starting_choice[seat] + (event.card,)
            ),
            dock_piles=_set(state.dock_piles, seat, _without(state.dock_piles[seat], event.card)),
        )
    if t is ev.DockPilesFormed:
        hands = tuple(state.hands[s] + state.starting_choice[s] for s in range(n))
        piles = tuple(
            tuple(c for c in state.dock_piles[s] if c not in event.aside[s]) for s in range(n)
        )
        return replace(
            state,
            hands=hands,
            dock_piles=piles,
            docks_aside=event.aside,
            starting_choice=(),
            phase="choose",
        )
    if t is ev.BuyingOpened:
        return replace(state, phase="buy", buy_pending=event.seats, buy_wants=(None,) * n)
    if t is ev.BuyDeclared:
        return replace(state, buy_wants=_set(state.buy_wants, event.seat, event.buy))
    if t is ev.SpecialCardBought:
        seat = event.seat
        card = event.card if event.card is not None else state.specials_pile[0]
        return replace(
            state,
            hands=_set(state.hands, seat, state.hands[seat] + (card,)),
            specials_pile=_without(state.specials_pile, card),
            money=_set(state.money, seat, state.money[seat] - event.price),
            treasury=state.treasury + event.price,
        )
    if t is ev.BuyingClosed:
        return replace(state, phase="choose", buy_pending=(), buy_wants=(None,) * n)
    if t is ev.StepOpened:
        return replace(state, pending=event.step, pending_seat=event.seat, pending_card=event.card)
    if t is ev.StepClosed:
        return replace(state, pending="", pending_seat=None, pending_card=None)
    if t is ev.PilePickPaid:
        return replace(
            state,
            money=_set(state.money, event.seat, state.money[event.seat] - event.amount),
            treasury=state.treasury + event.amount,
        )
    if t is ev.WaterPlacedForFlood:
        seat = event.seat
        span = state.span
        if span is not None:
            span = (
                min(span[0], event.x),
                max(span[1], event.x),
                min(span[2], event.y),
                max(span[3], event.y),
            )
        return replace(
            state,
            board=state.board + (Cell(event.x, event.y, event.card),),
            hands=_set(state.hands, seat, _without(state.hands[seat], event.card)),
            placed_this_round=True,
            span=span,
            flood_water=state.flood_water + (event.card,),
            round_cards=state.round_cards + (event.card,),
        )
    if t is ev.FloodDiscarded:
        return replace(
            state,
            order=tuple(s for s in state.order if s != event.seat),
            discarded=state.discarded + (event.card,),
            flood_water=(),
            ship_moved=False,
        )
    if t is ev.WaterFilled:
        board = state.board + tuple(Cell(x, y, c) for x, y, c in event.cells)
        span = state.span
        for x, y, _ in event.cells:
            span = (min(span[0], x), max(span[1], x), min(span[2], y), max(span[3], y))
        used = {c for _, _, c in event.cells}
        return replace(
            state,
            board=board,
            span=span,
            water_pile=tuple(c for c in state.water_pile if c not in used),
        )
    raise TypeError(f"unknown event {event!r}")


def record_goods(state: KontorState, event) -> KontorState:
    """WarehousesAdded with fewer goods than printed (Choix de la marchandise). Only under
    that rule: the export warehouse keeps its own account (export_warehouse.adjust)."""
    if not state.options.choose_good:
        return state
    rest = tuple(e for e in state.warehouse_goods if e[0] != event.card)
    if tuple(event.goods) != CARDS[event.card].goods:
        rest = rest + ((event.card, tuple(event.goods)),)
    if rest == state.warehouse_goods:
        return state
    return replace(state, warehouse_goods=rest)


# ---------------------------------------------------------------------------------------
# who acts, what they may send


def rule_to_act(state: KontorState) -> tuple[int, ...] | None:
    if state.phase == "starting_docks":
        k = state.options.starting_dock_choice
        return tuple(s for s in range(state.seat_count) if len(state.starting_choice[s]) < k)
    if state.phase == "buy":
        return tuple(s for s in state.buy_pending if state.buy_wants[s] is None)
    if state.pending and state.phase == "place":
        return (state.pending_seat,)
    return None


def rule_legal(state: KontorState, seat: int) -> list | None:
    """The legal commands in the special phases and steps (None: the normal ones)."""
    if state.phase == "starting_docks":
        return [ChooseStartingDock(c) for c in sorted(set(state.dock_piles[seat]))]
    if state.phase == "buy":
        out = [BuySpecialCard(False)]
        if state.money[seat] >= state.options.special_price:
            out.insert(0, BuySpecialCard(True))
        return out
    if state.pending == "good":
        return [ChooseGood(g) for g in good_choices(state.pending_card)]
    if state.pending == "draw":
        return [DrawCard(p) for p in draw_choices(state, seat, state.pending_card)]
    if state.pending == "pick":
        return [TakeFromPile(c) for c in sorted(set(state.dock_piles[seat]))]
    if state.pending == "flood_water":
        return water_commands(state, seat)
    return None


def extra_place_commands(state: KontorState, seat: int) -> list:
    """Choix d'inondation: the placer of a flood may place canals instead."""
    if state.phase != "place" or state.pending or not state.order or state.order[0] != seat:
        return []
    if not may_use_flood_as_water(state, seat):
        return []
    return water_commands(state, seat)


def may_use_flood_as_water(state: KontorState, seat: int) -> bool:
    """« on peut choisir de l'utiliser pour jouer deux cartes d'eau »: a flood revealed,
    and the two water cards in hand."""
    k = state.options.flood_as_water
    card = state.revealed[seat] if state.revealed else None
    if not k or card is None or CARDS[card].kind != "flood":
        return False
    canals = [c for c in state.hands[seat] if CARDS[c].kind == "water"]
    return len(canals) >= k


def water_commands(state: KontorState, seat: int) -> list:
    cells = occupancy(state)
    out = []
    canals = sorted(c for c in state.hands[seat] if CARDS[c].kind == "water")
    for card in canals:
        for x, y in placement_cells(state, cells, card, seat):
            out.append(PlaceWater(card, x, y))
    return out


def good_choices(card: int) -> list[str]:
    """« il faut décider laquelle de ces 2 ou 3 marchandises on choisit »."""
    goods = CARDS[card].goods
    return [g for g in GOODS if g in goods]


def draw_choices(state: KontorState, seat: int, card: int) -> list[str]:
    """The replacement draws open to the seat after placing ``card`` (not a special one).

    Libre choix: « Vous pouvez choisir librement la pile dont vous tirez la carte. Vous
    devez cependant toujours avoir au moins un dock et un canal en main » (free_draw.py).
    Without it, the pile of the card's kind. Premier choix: with a dock draw, « En payant
    2 pièces de monnaie, on peut choisir un dock dans la pile » (``dock_pick``; a pile of
    two cards at least)."""
    opts = state.options
    kinds = []
    if opts.free_draw:
        have = {"dock": bool(state.dock_piles[seat]), "water": bool(state.water_pile)}
        kinds = free_draw_piles(
            state.hands[seat],
            [p for p in have if have[p]],
            by_printed_kind=state.rules_version in FREE_DRAW_BY_PRINTED_KIND,
        )
    else:
        pile = "dock" if CARDS[card].is_dock else "water"
        has = state.dock_piles[seat] if pile == "dock" else state.water_pile
        kinds = [pile] if has else []
    out = list(kinds)
    if (
        "dock" in kinds
        and opts.pile_pick_cost
        and len(state.dock_piles[seat]) >= 2
        and state.money[seat] >= opts.pile_pick_cost
    ):
        out.append("dock_pick")
    return out


# ---------------------------------------------------------------------------------------
# decide


def secret_pass(log, seat: int) -> bool:
    """Marins ivres morts: « Pour passer, on ne le dit plus. A la place, on prépare en secret
    la taverne qui signifie "je passe" »."""
    if not log.state.options.secret_pass:
        return False
    log.emit(ev.CardChosen(seat, None, passing=True))
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


def open_good_step(log, seat: int, card: int) -> str | None:
    """Choix de la marchandise: a dock with 2 or 3 goods waits for ChooseGood ("step");
    with two identical goods its one warehouse is laid at once ("added"); None: the
    normal warehouses."""
    if not log.state.options.choose_good:
        return None
    goods = good_choices(card)
    if len(CARDS[card].goods) < 2:
        return None
    if len(goods) == 1:
        # two identical goods: the one good, one warehouse (« Seul l'entrepôt
        # correspondant sera posé sur la carte »)
        log.emit(ev.WarehousesAdded(seat, card, (goods[0],)))
        return "added"
    log.emit(ev.StepOpened(seat, "good", card))
    return "step"


def open_draw_step(log, seat: int, card: int) -> bool:
    """Free choice / first choice: the draw waits for DrawCard when there is a choice.
    Returns True when the flow stops here (a step opened, or the draw was done)."""
    opts = log.state.options
    if not (opts.free_draw or opts.pile_pick_cost):
        return False
    choices = draw_choices(log.state, seat, card)
    if len(choices) >= 2:
        log.emit(ev.StepOpened(seat, "draw", card))
        return True
    if opts.free_draw and choices:
        _draw(log, seat, choices[0])

        log.income_and_advance(seat, card)
        return True
    return False


def _draw(log, seat: int, pile: str) -> None:
    st = log.state
    if pile == "dock":
        log.emit(ev.CardDrawn(seat, st.dock_piles[seat][0], "dock"))
    else:
        log.emit(ev.CardDrawn(seat, st.water_pile[0], "water"))


def rule_decide(log, seat: int, command) -> None:

    st = log.state
    if isinstance(command, ChooseStartingDock):
        if st.phase != "starting_docks":
            raise RuleViolation("kontor.not_starting", "Starting docks are chosen before the game.")
        if command.card not in st.dock_piles[seat]:
            raise RuleViolation(
                "kontor.card_not_in_deck",
                "Choose one of the docks of your own deck (« Chaque joueur choisit ses trois "
                "premiers docks »).",
            )
        log.emit(ev.StartingDockChosen(seat, command.card))
        st = log.state
        k = st.options.starting_dock_choice
        if all(len(c) >= k for c in st.starting_choice):
            # « De plus, quatre docks sont retirés cachés de chaque pile »
            m = st.options.docks_set_aside
            log.emit(ev.DockPilesFormed(tuple(tuple(p[:m]) for p in st.dock_piles)))
            open_round(log)
        return
    if isinstance(command, BuySpecialCard):
        if st.phase != "buy":
            raise RuleViolation("kontor.not_buying", "Special cards are bought before a round.")
        price = st.options.special_price
        if command.buy and st.money[seat] < price:
            raise RuleViolation(
                "kontor.cannot_afford", f"A special card costs {price} florins (« deux pièces »)."
            )
        log.emit(ev.BuyDeclared(seat, bool(command.buy)))
        st = log.state
        if all(st.buy_wants[s] is not None for s in st.buy_pending):
            _resolve_buying(log)
        return
    if isinstance(command, ChooseGood):
        if st.pending != "good":
            raise RuleViolation("kontor.no_good_choice", "There is no good to choose now.")
        card = st.pending_card
        if command.good not in good_choices(card):
            raise RuleViolation(
                "kontor.good_not_on_card",
                "Choose one of the goods the dock shows (« laquelle de ces 2 ou 3 "
                "marchandises on choisit »).",
            )
        log.emit(ev.StepClosed(seat, "good", command.good))
        log.emit(ev.WarehousesAdded(seat, card, (command.good,)))
        log.after_warehouses(seat, card)
        return
    if isinstance(command, DrawCard):
        if st.pending != "draw":
            raise RuleViolation("kontor.no_draw_choice", "There is no draw to choose now.")
        card = st.pending_card
        if command.pile not in draw_choices(st, seat, card):
            raise RuleViolation(
                "kontor.draw_pile",
                "This pile is not open: keep at least one dock and one canal in hand (« Vous "
                "devez cependant toujours avoir au moins un dock et un canal en main »), and "
                "a pick from the pile costs 2 florins.",
            )
        log.emit(ev.StepClosed(seat, "draw", command.pile))
        if command.pile == "dock_pick":
            log.emit(ev.PilePickPaid(seat, st.options.pile_pick_cost))
            log.emit(ev.StepOpened(seat, "pick", card))
            return
        _draw(log, seat, command.pile)
        log.income_and_advance(seat, card)
        return
    if isinstance(command, TakeFromPile):
        if st.pending != "pick":
            raise RuleViolation("kontor.no_pick", "Pay to pick from your pile first (DrawCard).")
        if command.card not in st.dock_piles[seat]:
            raise RuleViolation("kontor.card_not_in_pile", "This dock is not in your pile.")
        card = st.pending_card
        log.emit(ev.StepClosed(seat, "pick", str(command.card)))
        # « Il est interdit de changer à cette occasion l'ordre des cartes »
        log.emit(ev.CardDrawn(seat, command.card, "dock"))
        log.income_and_advance(seat, card)
        return
    if isinstance(command, PlaceWater):
        _place_water(log, seat, command)
        return
    raise RuleViolation("kontor.unknown_command", f"Unknown command {command!r}.")


def _resolve_buying(log) -> None:
    """« Si les deux joueurs veulent acheter et qu'il ne reste pas assez de cartes
    spéciales, le joueur qui montre la carte de numéro le plus élevé achète en premier »:
    the wishes were secret until all had said; then the buyers buy one card each, the one
    whose dock pile shows the higher number first (reading R-A8)."""
    st = log.state
    wanted = [s for s in st.buy_pending if st.buy_wants[s]]
    wanted.sort(key=lambda s: (-shown_number(st, s), s))
    price = st.options.special_price
    for seat in wanted:
        pile = log.state.specials_pile
        if not pile:
            break
        log.emit(ev.SpecialCardBought(seat, pile[0], price))
    log.emit(ev.BuyingClosed(tuple(sorted(wanted))))


def shown_number(state: KontorState, seat: int) -> int:
    """The number a seat shows: the face-up top card of its dock pile (0 when empty)."""
    pile = state.dock_piles[seat]
    return CARDS[pile[0]].number or 0 if pile else 0


def open_round(log) -> None:
    """Before each round: the buying of special cards (« Avant chaque tour »)."""
    st = log.state
    price = st.options.special_price
    if not price or st.phase == "over" or not st.specials_pile:
        return
    seats = tuple(s for s in range(st.seat_count) if st.money[s] >= price)
    if seats:
        log.emit(ev.BuyingOpened(seats))


def _place_water(log, seat: int, cmd: PlaceWater) -> None:
    """Choix d'inondation: « on peut choisir de l'utiliser pour jouer deux cartes d'eau.
    Après quoi, elle est défaussée et le joueur tire deux nouvelles cartes d'eau »."""

    st = log.state
    first = st.pending == "" and st.phase == "place" and st.order and st.order[0] == seat
    if not (st.pending == "flood_water" or (first and may_use_flood_as_water(st, seat))):
        raise RuleViolation(
            "kontor.no_flood_water",
            "Water cards are played for a flood only by its placer (« Choix d'inondation »).",
        )
    if cmd.card not in st.hands[seat] or CARDS[cmd.card].kind != "water":
        raise RuleViolation("kontor.card_not_in_hand", "Play a canal from your hand.")
    cells = occupancy(st)
    if (cmd.x, cmd.y) not in placement_cells(st, cells, cmd.card, seat):
        raise placement_error(st, cells, cmd.card, seat, (cmd.x, cmd.y))
    flood = st.revealed[seat]
    if st.pending == "flood_water":
        log.emit(ev.StepClosed(seat, "flood_water", str(cmd.card)))
    log.emit(ev.WaterPlacedForFlood(seat, cmd.card, cmd.x, cmd.y))
    score_closed_sectors(log)
    st = log.state
    size = st.options.board_size
    if len(occupancy(st)) >= size * size:
        log.end_game("board_full")
        return
    placed = len(st.flood_water)
    if placed < st.options.flood_as_water and water_commands(st, seat):
        log.emit(ev.StepOpened(seat, "flood_water", flood))
        return
    log.emit(ev.FloodDiscarded(seat, flood))
    for _ in range(placed):
        if log.state.water_pile:
            log.emit(ev.CardDrawn(seat, log.state.water_pile[0], "water"))
    # each canal played earns the subsidy (« Quand un joueur place un canal, il reçoit
    # une subvention »), while the treasury has coins
    amount = min(SETUP["canal_income"] * placed, log.state.treasury)
    if amount:
        log.emit(ev.IncomePaid(seat, amount))
    log.advance()


def alternative_play(state: KontorState, seat: int) -> bool:
    """A flood without a legal cell may still be played as two water cards."""
    return may_use_flood_as_water(state, seat)


# ---------------------------------------------------------------------------------------
# view, redaction, redetermination


def hand_size(state: KontorState, seat: int) -> int:
    """Marins ivres morts: the "I pass" card is in the hand unless it is laid."""
    n = len(state.hands[seat])
    if state.options.secret_pass and state.chosen and state.chosen[seat] != PASS_CHOICE:
        n += 1
    return n


def view_keys(state: KontorState, out: dict, viewer: int | None) -> None:
    opts = state.options
    n = state.seat_count
    if opts.secret_pass:
        for p in out["players"]:
            p["hand_size"] = hand_size(state, p["seat"])
    if state.phase == "starting_docks":
        for p in out["players"]:
            p["dock_pile"]["top"] = None  # the deck is not a pile yet
            p["starting_docks"] = len(state.starting_choice[p["seat"]])
    if opts.docks_set_aside:
        out["docks_aside"] = [len(a) for a in state.docks_aside] or [0] * n
    if opts.special_price:
        out["specials_pile"] = len(state.specials_pile)
        if state.phase == "buy":
            out["buying"] = {
                "seats": list(state.buy_pending),
                "declared": [s for s in state.buy_pending if state.buy_wants[s] is not None],
            }
    if state.pending:
        out["step"] = {"seat": state.pending_seat, "step": state.pending, "card": state.pending_card}
        if state.pending == "good":
            out["step"]["goods"] = good_choices(state.pending_card)
        if state.pending == "draw":
            out["step"]["piles"] = draw_choices(state, state.pending_seat, state.pending_card)
    if opts.flood_as_water and state.flood_water:
        out["flood_water"] = list(state.flood_water)
    if state.discarded:
        out["discarded"] = list(state.discarded)
    if state.warehouse_goods:
        goods = dict(state.warehouse_goods)
        for w in out["board"]["warehouses"]:
            if w["card"] in goods:
                w["goods"] = list(goods[w["card"]])
    if viewer is None or "you" not in out:
        return
    you = out["you"]
    if opts.secret_pass:
        you["pass_card"] = state.chosen[viewer] != PASS_CHOICE
        you["passing"] = state.chosen[viewer] == PASS_CHOICE
        if you["chosen"] == PASS_CHOICE:
            you["chosen"] = None
    if state.phase == "starting_docks":
        you["deck"] = sorted(state.dock_piles[viewer])
        you["starting_docks"] = list(state.starting_choice[viewer])
    if state.phase == "buy":
        you["buy"] = state.buy_wants[viewer]
    if state.pending == "pick" and state.pending_seat == viewer:
        you["dock_pile"] = list(state.dock_piles[viewer])


def view_hidden(state: KontorState, hidden: dict) -> None:
    if state.docks_aside:
        hidden["docks_aside"] = [list(a) for a in state.docks_aside]
    if state.options.special_price:
        hidden["specials_pile"] = list(state.specials_pile)


def redact(event, viewer: int | None, data: dict) -> dict:
    t = type(event)
    if t is ev.GameStarted:
        if event.phase == "starting_docks":
            for p in data["dock_piles"]:
                p["top"] = None
        data["specials_pile"] = {"size": len(event.specials_pile)}
    elif t is ev.CardChosen and event.seat != viewer:
        data["passing"] = False
    elif t is ev.StartingDockChosen and event.seat != viewer:
        data["card"] = None
    elif t is ev.DockPilesFormed:
        data["aside"] = [{"size": len(a)} for a in event.aside]
    elif t is ev.BuyDeclared and event.seat != viewer:
        data["buy"] = None
    elif t is ev.SpecialCardBought and event.seat != viewer:
        data["card"] = None
    elif t is ev.StepClosed and event.step == "pick" and event.seat != viewer:
        pass  # the drawn card is public (CardDrawn) like any draw from the face-up pile
    return data


def slot_of(state: KontorState, base):
    """The kind of a hidden slot; special cards handed out by colour keep their identity
    (everyone knows red holds 90 and 92: « Rouge prend l'inondation 90 et le pont 92 »)."""
    if not state.options.hand_specials:
        return base

    def slot(card: int) -> tuple:
        if CARDS[card].is_special:
            return ("special", card)
        return base(card)

    return slot


def redetermine_extra(original: KontorState, state: KontorState, observer, rng, slot) -> KontorState:
    """After the basic re-deal: the Justice deck and set-aside docks, the special-card pile,
    other seats' secret pass and buying wishes; a picking observer keeps its seen pile."""
    n = state.seat_count
    opts = state.options
    hands = [list(h) for h in state.hands]
    piles = [list(p) for p in state.dock_piles]
    choice = [list(c) for c in state.starting_choice]
    aside = [list(a) for a in state.docks_aside]
    specials_pile = list(state.specials_pile)
    pools: dict[tuple, list[int]] = {}
    slots: list = []  # (container, index)

    def put(container: list, i: int) -> None:
        pools.setdefault(slot(container[i]), []).append(container[i])
        slots.append((container, i))

    if state.phase == "starting_docks":
        for s in range(n):
            for i in range(len(piles[s])):
                put(piles[s], i)
            if s != observer:
                for i in range(len(choice[s])):
                    put(choice[s], i)
    elif aside:
        known = state.pile_known or (0,) * n
        seen = original.pending_seat if original.pending == "pick" else None
        opened = original.pile_open or (False,) * n  # expansions (Mariage): a pile seen whole
        for s in range(n):
            cut = max(1, len(piles[s]) - known[s])
            if s == observer and (s == seen or opened[s]):
                cut = 1
            for i in range(1, cut):
                put(piles[s], i)
            for i in range(len(aside[s])):
                put(aside[s], i)
    if specials_pile:
        for i in range(len(specials_pile)):
            put(specials_pile, i)
        for s in range(n):
            if s == observer:
                continue
            shown = original.known_hand[s] if original.known_hand else frozenset()
            for i, c in enumerate(hands[s]):
                if CARDS[c].is_special and c not in shown:  # shown cards stay (expansions)
                    put(hands[s], i)
    for key in sorted(pools, key=repr):
        pools[key] = list(rng.shuffle(pools[key]))
    for container, i in slots:
        container[i] = pools[slot(container[i])].pop()
    chosen = list(state.chosen)
    if opts.secret_pass and state.phase == "choose":
        for s in range(n):
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
    wants = list(state.buy_wants)
    if state.phase == "buy":
        for s in state.buy_pending:
            if s != observer and wants[s] is not None:
                wants[s] = bool(rng.below(2))
    if original.pending == "pick" and original.pending_seat == observer:
        piles[observer] = list(original.dock_piles[observer])
    return replace(
        state,
        hands=tuple(tuple(h) for h in hands),
        dock_piles=tuple(tuple(p) for p in piles),
        starting_choice=tuple(tuple(c) for c in choice),
        docks_aside=tuple(tuple(a) for a in aside),
        specials_pile=tuple(specials_pile),
        chosen=tuple(chosen),
        buy_wants=tuple(wants),
    )


def register(hooks) -> None:
    hooks.to_act.append(rule_to_act)
    hooks.legal_commands.append(rule_legal)
    hooks.command.append(_decide)
    hooks.after_ship_commands.append(extra_place_commands)
    hooks.pass_turn.append(secret_pass)
    hooks.revealed_cards.append(revealed_cards)
    hooks.after_reveal.append(after_reveal)
    hooks.alternative_play.append(alternative_play)
    hooks.round_started.append(open_round)
    hooks.good_step.append(open_good_step)
    hooks.draw_step.append(open_draw_step)
    hooks.deal.append(special_setup)
    hooks.started.append(lambda event, state: evolve_started(state, event))
    hooks.evolve_event.append(_evolve_event)
    hooks.warehouses_added.append(lambda event, state: record_goods(state, event))
    hooks.view.append(lambda state, out, cells, viewer: view_keys(state, out, viewer))
    hooks.view_hidden.append(view_hidden)
    hooks.redact.append(redact)
    hooks.slot.append(slot_of)
    hooks.redetermine.append(
        lambda original, observer, rng, slot, state: redetermine_extra(
            original, state, observer, rng, slot
        )
    )
    hooks.rule_settings.append(_settings)


def _decide(log, seat: int, command) -> bool:
    if not isinstance(command, RULE_COMMANDS):
        return False
    rule_decide(log, seat, command)
    log.after_command()
    return True


def _evolve_event(state: KontorState, event) -> KontorState | None:
    return evolve_rule(state, event) if type(event) in RULE_EVENTS else None


def _settings(rules: set[str], seat_count: int, settings: dict, variant: str | None):
    return (
        special_rule_settings(rules, seat_count, settings),
        special_rule_errors(rules, variant),
    )
