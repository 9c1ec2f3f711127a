"""Phase III (L448-620): the actions of a seat's turn, their legal forms and effects."""

from __future__ import annotations

from domain.amsterdam import cards, data, figures, market_tiles
from domain.amsterdam import events as ev
from domain.amsterdam.board import first_free_roof
from domain.amsterdam.commands import (
    ActivateCard,
    AdvanceAmstel,
    BuyPrestige,
    Convert,
    DeliverGood,
    EndTurn,
    LoadGood,
    MoveBarge,
    PickUpDocker,
    TakeBlock,
    UseCard,
)
from domain.amsterdam.payments import affordable, any_colours, colours_of
from domain.amsterdam.state import State
from domain.amsterdam.versions import CB21_MAY_STAY
from domain.decider import RuleViolation


def _violation(rule: str, message: str) -> RuleViolation:
    return RuleViolation(f"amsterdam.{rule}", message)


# -- legal commands --------------------------------------------------------------------
def activate_commands(state: State, seat_index: int) -> list[ActivateCard]:
    seat = state.seats[seat_index]
    out = [ActivateCard(card, payment, by_florins)
           for card in dict.fromkeys(seat.inactive)
           for payment, by_florins in cards.activation_payments(seat, card)]
    if seat.turn.free_activations:                                   # CA 20, CB 24
        out += [ActivateCard(card, (), False, True) for card in dict.fromkeys(seat.inactive)]
    return out


def block_limit(seat) -> int:
    second = cards.modifier(seat, "second_block")                   # 028
    return data.BLOCKS_PER_TURN if second is None else second[0]


def block_payments(state: State, seat, block: str) -> list[tuple[tuple[str, ...], bool]]:
    info = data.BLOCKS[block]
    discount = cards.modifier(seat, "block_discount")                # 025 (B14)
    less = 0 if discount is None else discount[0]
    less += data.BAILIFF_DISCOUNT if state.bailiff == block else 0   # L786, B14: they stack
    cost = (info.colour,) * max(0, info.cost - less)
    out = []
    if affordable(seat.reserve, cost):
        out.append((cost, False))
    by_florins = cards.modifier(seat, "block_for_florins")           # 027
    if by_florins is not None and seat.florins >= by_florins[0]:
        out.append(((), True))
    return out


def sale_options(state: State, seat, good: str) -> tuple[str | None, ...]:
    if good in state.black_market:
        return (None,)
    if state.market_pawn == good or cards.has_modifier(seat, "sale_both"):  # L856; 037 (B12)
        return (None, "both")
    return (None, "florins", "resource")


def block_commands(state: State, seat_index: int, only: str | None = None) -> list[TakeBlock]:
    """Every block the seat may take now, or with ``only`` just that block's ways (checking
    one command need not list the whole city)."""
    seat = state.seats[seat_index]
    if seat.turn.blocks_taken >= block_limit(seat):
        return []
    out = []
    for block, owner in zip(data.BLOCK_IDS, state.block_owner):
        if owner is not None or (only is not None and block != only):
            continue
        moves = block_moves(state, seat, block)
        for payment, by_florins in block_payments(state, seat, block):
            out += [TakeBlock(block, payment, by_florins, *move) for move in moves]
    return out


def barge_commands(state: State, seat_index: int) -> list:
    seat = state.seats[seat_index]
    out: list = []
    here = seat.barge
    if here == data.START or here in data.PONTOONS:
        out += [LoadGood(g) for g in dict.fromkeys(seat.provisional)]
    pays = [None] if seat.turn.barge_credit > 0 else list(dict.fromkeys(colours_of(seat.reserve)))
    for node in data.HARBOUR[here]:
        out += [MoveBarge(node, pay) for pay in pays]
    one_per_stop = state.options.docker_pickup == "one"              # B7
    if (here in data.PONTOONS and not (one_per_stop and seat.turn.docker_taken_here)
            and len(seat.dockers) < data.MAX_DOCKERS_ON_BARGE):
        pontoon = state.pontoons[tuple(data.PONTOONS).index(here)]
        out += [PickUpDocker(c) for c in dict.fromkeys(pontoon)]
    for good in dict.fromkeys(seat.cargo):
        if delivery_place(state, here, good) is not None:
            out.append(DeliverGood(good))
    return out


def delivery_place(state: State, node: str, good: str) -> str | None:
    if node == good and first_free_roof(state, good) is not None:
        return good
    if node in data.DEPOTS and state.depots[tuple(data.DEPOTS).index(node)] is None:
        return node
    return None


def amstel_commands(state: State, seat_index: int) -> list[AdvanceAmstel]:
    seat = state.seats[seat_index]
    if seat.mouth_slot is not None:
        return []
    if not seat.turn.amstel_moved:
        size = data.AMSTEL_COST["first"]
    elif seat.turn.amstel_open:
        size = data.AMSTEL_COST["further"]
    else:
        return []
    return [AdvanceAmstel(p) for p in any_colours(seat.reserve, size)]


def market_limit(seat) -> int:
    twice = cards.modifier(seat, "market_twice")                     # 020
    return data.MARKET_USES_PER_TURN if twice is None else twice[0]


def market_commands(state: State, seat_index: int) -> list[BuyPrestige]:
    seat = state.seats[seat_index]
    tile = state.market_tile
    if tile is None or seat.turn.market_uses >= market_limit(seat):
        return []
    if seat.florins < data.MARKET_TILES[tile].florins:
        return []
    special = data.MARKET_TILES[tile].special
    if special == "exchange_card":
        return market_tiles.exchange_commands(state, seat_index)
    if special == "barge_anywhere":                # CB 21 (L2238): to another space
        here = None if state.rules_version in CB21_MAY_STAY else seat.barge
        return [BuyPrestige(node=n) for n in data.HARBOUR_NODES if n != here]
    if special == "free_block":
        return [BuyPrestige(block=b, sale=s, bailiff_to=f, pawn_to=p)
                for b, o in zip(data.BLOCK_IDS, state.block_owner) if o is None
                for s, f, p in block_moves(state, seat, b)]
    return [BuyPrestige()]


def end_turn_commands(state: State, seat_index: int) -> list[EndTurn]:
    seat = state.seats[seat_index]
    keeps: list[str | None] = [None]
    # L624: the house keeps HOUSE_CAPACITY cube(s) (EndTurn.keep names one, so 0 or 1);
    # L631: no Phase IV in the last round
    if state.round < data.ROUNDS_FULL and data.HOUSE_CAPACITY > 0:
        keeps += list(dict.fromkeys(colours_of(seat.reserve)))
    moves: tuple[str | None, ...] = (None,)
    if seat.turn.foreman_due and state.foreman is not None:
        moves = figures.foreman_destinations(state) or (None,)
    return [EndTurn(keep, move) for keep in keeps for move in moves]


def action_commands(state: State, seat_index: int) -> list:
    return (activate_commands(state, seat_index) + cards.use_commands(state, seat_index)
            + cards.convert_commands(state.seats[seat_index])
            + block_commands(state, seat_index) + barge_commands(state, seat_index)
            + amstel_commands(state, seat_index) + market_commands(state, seat_index)
            + end_turn_commands(state, seat_index))


# -- effects -------------------------------------------------------------------------
def activate(tx, seat: int, command: ActivateCard) -> None:
    me = tx.seat(seat)
    if command.card not in me.inactive:
        raise _violation("not_inactive", "Only one of your inactive cards can be activated.")
    if command not in activate_commands(tx.state, seat):
        raise _violation("activation_cost", "Pay the resources shown on the card, colours"
                         " matter (L460); 031/042 spare one of them, 038 costs 3 florins.")
    if command.by_florins:                                           # 038
        source = next(c for c, e in cards.effects(me, "converter")
                      if e.name == "florins_to_activation")
        tx.florins(seat, -data.CARDS[source].effect.params[0], source)
    else:
        tx.spend(seat, command.payment, command.card)
    tx.emit(ev.CardActivated(seat, command.card, command.free))
    cards.on_activate(tx, seat, command.card)


def use(tx, seat: int, command: UseCard) -> None:
    if not cards.validate_use(tx.state, seat, command):
        raise _violation("card_use", "This card cannot be used now: a III card once a round"
                         " in your turn when its condition holds (L478-482, L1039).")
    cards.apply_use(tx, seat, command)


def convert(tx, seat: int, command: Convert) -> None:
    if command not in cards.convert_commands(tx.seat(seat)):
        raise _violation("conversion", "This exchange is not available with your cards and"
                         " reserve.")
    cards.apply_convert(tx, seat, command)


def take_block(tx, seat: int, command: TakeBlock) -> None:
    state = tx.state
    if command not in block_commands(state, seat, command.block):
        me = state.seats[seat]
        if me.turn.blocks_taken >= block_limit(me):
            raise _violation("one_block_per_turn", "One block per turn (L494; 028: two).")
        raise _violation("block_cost", "Take a free block, paying its cost in resources of"
                         " its district's colour (L494); a good sells on the black market only"
                         " on a free space (L578).")
    if command.by_florins:                                           # 027
        me = state.seats[seat]
        source = next(c for c, e in cards.effects(me, "modifier")
                      if e.name == "block_for_florins")
        tx.florins(seat, -data.CARDS[source].effect.params[0], source)
    else:
        tx.spend(seat, command.payment, "block")
    acquire_block(tx, seat, command.block, command.sale, command.bailiff_to, command.pawn_to)


def block_moves(state: State, seat, block: str) -> list[tuple[str | None, str | None, str | None]]:
    """(sale, bailiff_to, pawn_to) choices when ``block`` is taken."""
    good = state.block_goods[data.BLOCK_IDS.index(block)]
    bailiff = (figures.bailiff_destinations(state, block) or (None,)
               if state.bailiff == block else (None,))
    out = []
    for sale in sale_options(state, seat, good):
        pawn = (figures.pawn_destinations(state, good) or (None,)
                if sale is not None and state.market_pawn == good else (None,))
        out += [(sale, b, p) for b in bailiff for p in pawn]
    return out


def acquire_block(tx, seat: int, block: str, sale, bailiff_to, pawn_to, counted=True) -> None:
    """L496-498, L578-580: the coat of arms goes on the block, its good to the provisional
    warehouse or sold at once; the bailiff and the pawn move on (L790, L858)."""
    state = tx.state
    good = state.block_goods[data.BLOCK_IDS.index(block)]
    pawn_sale = sale is not None and state.market_pawn == good
    tx.emit(ev.BlockTaken(seat, block, good, sale is not None, counted))
    if state.bailiff == block:
        tx.emit(ev.FigureMoved(figures.BAILIFF, bailiff_to))
    if pawn_sale:
        tx.emit(ev.FigureMoved(figures.PAWN, pawn_to))
    if sale in ("florins", "both"):
        by_card = sale == "both" and not pawn_sale                        # 037
        tx.florins(seat, data.BLACK_MARKET_FLORINS, "black_market", by_card=by_card)
    if sale in ("resource", "both"):
        tx.choices(seat, data.BLACK_MARKET_CHOICES, "black_market")
    cards.on_block(tx, seat)


def load(tx, seat: int, command: LoadGood) -> None:
    if command not in barge_commands(tx.state, seat):
        raise _violation("load_at_start_or_pontoon", "Goods are loaded from the provisional"
                         " warehouse only at the start bridge or a pontoon (L514).")
    tx.emit(ev.GoodLoaded(seat, command.good))


def move_barge(tx, seat: int, command: MoveBarge) -> None:
    me = tx.seat(seat)
    if command not in barge_commands(tx.state, seat):
        raise _violation("barge_move", "The barge moves to a neighbouring space, paying one"
                         " resource of any colour per space (L530-532).")
    credit = me.turn.barge_credit
    if command.pay is not None:
        tx.spend(seat, (command.pay,), "barge")
        half = cards.modifier(me, "barge_half")                      # 040: 2 spaces a cube
        credit = 0 if half is None else half[0] - 1
    else:
        credit -= 1
    tx.emit(ev.BargeMoved(seat, command.to, credit))
    cards.on_barge_steps(tx, seat)
    arrive(tx, seat, command.to)


def arrive(tx, seat: int, node: str) -> None:
    """B8: dockers are delivered on every arrival at the pontoon of their colour (L540)."""
    if node in data.PONTOONS:
        colour = data.PONTOONS[node]
        while colour in tx.seat(seat).dockers:
            space = len(tx.state.docker_building)
            values = data.DOCKER_BUILDING["values"]
            points = values[min(space, len(values) - 1)]
            tx.emit(ev.DockerDelivered(seat, colour, space))
            double = cards.modifier(tx.seat(seat), "docker_double")   # 050
            if double is not None:
                points *= double[0]
            tx.points(seat, points, "docker_building")


def pick_up(tx, seat: int, command: PickUpDocker) -> None:
    if command not in barge_commands(tx.state, seat):
        raise _violation("docker_pickup", "Take one docker per stop at a pontoon, at most two"
                         " aboard (L536, B7).")
    tx.emit(ev.DockerPickedUp(seat, command.colour, tx.seat(seat).barge))
    tx.florins(seat, data.DOCKER_PICKUP_FLORINS, "docker_pickup")


def deliver(tx, seat: int, command: DeliverGood) -> None:
    state = tx.state
    if command not in barge_commands(state, seat):
        raise _violation("delivery", "Deliver a good from your barge at its warehouse, on a"
                         " free roof, or at a free depot (L544-548).")
    place = delivery_place(state, state.seats[seat].barge, command.good)
    value = (data.DEPOTS[place] if place in data.DEPOTS
             else first_free_roof(state, command.good))
    foreman = state.foreman == place
    tx.emit(ev.GoodDelivered(seat, command.good, place, foreman))
    tx.points(seat, value, "delivery")
    if foreman:
        tx.points(seat, data.FOREMAN_POINTS, "foreman")
    if state.round <= data.FAST_DELIVERY_LAST_ROUND:                 # L637-641
        tx.points(seat, data.FAST_DELIVERY_BASE - state.round, "fast_delivery")
    cards.on_deliver(tx, seat, command.good)


def advance_amstel(tx, seat: int, command: AdvanceAmstel) -> None:
    me = tx.seat(seat)
    if me.turn.amstel_moved and not me.turn.amstel_open:
        raise _violation("one_amstel_move_per_turn", "Advance on the Amstel once per turn"
                         " (L589): the move ended when another action followed.")
    if command not in amstel_commands(tx.state, seat):
        raise _violation("amstel_cost", "1 resource for the first space, 2 for each further"
                         " one, any colours (L589-594).")
    tx.spend(seat, tuple(command.payment), "amstel")
    tx.advance(seat, 1, "amstel", action=True)


def buy_prestige(tx, seat: int, command: BuyPrestige) -> None:
    if command not in market_commands(tx.state, seat):
        tile = data.MARKET_TILES.get(tx.state.market_tile or "")
        if (tile is not None and tile.special == "barge_anywhere"
                and command.node == tx.seat(seat).barge):
            raise _violation("market", "CB 21 moves your barge to another space of the harbour"
                             " (« déplacez votre barge sur une case de votre choix », L2238):"
                             " not the space it is on.")
        raise _violation("market", "Buy prestige once per turn (020: twice), paying the"
                         " tile's florins (L611).")
    tile = data.MARKET_TILES[tx.state.market_tile]
    tx.emit(ev.PrestigeBought(seat, tile.id))
    tx.florins(seat, -tile.florins, "market")
    if tile.points:
        tx.points(seat, tile.points, "market")
        cards.on_market_points(tx, seat)
    tx.advance(seat, tile.amstel, "market")
    tx.choices(seat, tile.choices, "market")
    market_tiles.apply(tx, seat, tile, command)
    if tile.special == "barge_anywhere":                      # CB 21: the barge arrives
        arrive(tx, seat, command.node)
    elif tile.special == "free_block":                        # CB 22 (B13: beside the limit)
        acquire_block(tx, seat, command.block, command.sale, command.bailiff_to,
                      command.pawn_to, counted=False)


def end_turn(tx, seat: int, command: EndTurn) -> None:
    if command not in end_turn_commands(tx.state, seat):
        raise _violation("house", "Keep at most one resource of your reserve in the house"
                         " (L624), none in the last round (L631); a foreman you delivered to"
                         " moves to the nearest place with room (L782).")
    if tx.seat(seat).turn.foreman_due and tx.state.foreman is not None:
        tx.emit(ev.FigureMoved(figures.FOREMAN, command.foreman_to))
    tx.emit(ev.TurnEnded(seat, command.keep))


HANDLERS = {ActivateCard: activate, UseCard: use, Convert: convert, TakeBlock: take_block,
            LoadGood: load, MoveBarge: move_barge, PickUpDocker: pick_up,
            DeliverGood: deliver, AdvanceAmstel: advance_amstel, BuyPrestige: buy_prestige,
            EndTurn: end_turn}
