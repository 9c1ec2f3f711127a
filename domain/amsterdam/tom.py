"""The solo opponent TOM (L886-972): no cards, no rose, no barge; he discards in Phase I
when he leads, and plays his Phases II and III from the unmodified dice, before you."""

from __future__ import annotations

from domain.amsterdam import data
from domain.amsterdam import events as ev
from domain.amsterdam.board import first_free_roof
from domain.amsterdam.state import State
from domain.amsterdam.versions import TOM_CLIMBS_WITHOUT_MOVING, TRIPLE_BY_DOCKER_COLOUR

TOM = data.TOM


def discard_candidates(state: State) -> tuple[str, ...]:
    """L903, example L919: the lowest total cost; among ties a plan goes first (you choose
    between two plans), a building before a craftsman (you choose between equals, B32)."""
    cheapest = min(len(data.CARDS[c].cost) for c in state.offer)
    tied = [c for c in state.offer if len(data.CARDS[c].cost) == cheapest]
    for kind in (data.PLAN, data.BUILDING, data.CRAFTSMAN):
        of_kind = tuple(c for c in tied if data.CARDS[c].kind == kind)
        if of_kind:
            return of_kind
    return ()


def advance(tx, spaces: int, source: str) -> None:
    """« TOM ... avance sur la rivière Amstel le cas échéant » (L942): no move, no event (a
    pawn goes on top of a stack only when it ends a move there); games of amsterdam-1 put
    TOM on top of his stack on a tile without a move (versions.py)."""
    tom = tx.state.tom
    if tom.mouth_slot is not None:
        return
    if spaces <= 0 and tx.state.rules_version not in TOM_CLIMBS_WITHOUT_MOVING:
        return
    end = min(data.AMSTEL_SPACES, tom.amstel + spaces)
    bridges = [v for k, v in sorted(data.AMSTEL["bridges"].items()) if tom.amstel <= k < end]
    slot = tx.state.mouth_arrivals + 1 if end == data.AMSTEL_SPACES else None
    tx.emit(ev.TomAdvanced(end, tx.state.next_stamp, slot, len(bridges)))
    for value in bridges:
        tx.emit(ev.TomScored(value, "amstel_bridge"))
    if slot is not None:
        tx.emit(ev.TomScored(data.MOUTH_POINTS, "amstel_mouth"))


def _cheapest_block(state: State, colour: str) -> str | None:
    """L936: the cheapest free block of the district; then one next to a TOM block; then
    the leftmost (then the topmost)."""
    owner = dict(zip(data.BLOCK_IDS, state.block_owner))
    free = [b for b in data.BLOCKS.values() if b.colour == colour and owner[b.id] is None]
    if not free:
        return None                                          # B32: nothing happens
    cheapest = min(b.cost for b in free)

    def key(b):
        near = any(owner[n] == TOM for n in data.BRIDGES[b.id])
        return (b.cost != cheapest, not near, b.x, b.y)
    return min(free, key=key).id


def _triple_docker(state: State, face: int) -> str | None:
    """L927-930 « prenez le docker sur le ponton suivant : Bleu clair Blanc Jaune Marron
    Rose Vert clair »: the docker standing on the pontoon that face names (solo: one docker
    of each colour, at most one per pontoon, never on its own colour's, L894); an empty
    pontoon gives nothing (B32). amsterdam-1 took the docker of the pontoon's colour
    wherever it stood (versions.py)."""
    pontoon = data.SOLO["triple_pontoons"][face]
    if state.rules_version in TRIPLE_BY_DOCKER_COLOUR:
        return pontoon if any(pontoon in d for d in state.pontoons) else None
    dockers = state.pontoons[tuple(data.PONTOONS.values()).index(pontoon)]
    return dockers[0] if dockers else None


def play_round(tx, rolled: tuple[int, ...]) -> None:
    """TOM's Phases II and III on the unmodified dice (L925-946)."""
    state = tx.state
    options = state.options
    for face in rolled:                                          # L925: each Amstel face
        if face == options.solo_amstel_face:
            advance(tx, data.SOLO["amstel_per_face"], "dice")
    for face in sorted(set(rolled)):                             # L927-932: triples
        if rolled.count(face) >= data.SOLO["triple"] and face not in tx.state.tom.triples:
            colour = _triple_docker(tx.state, face)
            space = len(tx.state.docker_building)
            tx.emit(ev.TomDockerDelivered(face, colour, space))
            if colour is not None:
                values = data.DOCKER_BUILDING["values"]
                tx.emit(ev.TomScored(values[min(space, len(values) - 1)], "docker_building"))
                tx.emit(ev.TomFlorins(data.SOLO["docker_florins"], "docker"))
    for colour, face in zip(data.COLOURS, rolled):               # L936-942: blocks
        if face != options.solo_block_face:
            continue
        block = _cheapest_block(tx.state, colour)
        if block is None:
            continue
        good = tx.state.block_goods[data.BLOCK_IDS.index(block)]
        if good not in tx.state.black_market:
            tx.emit(ev.TomBlockTaken(block, good, "black_market"))
            tx.emit(ev.TomFlorins(data.SOLO["sale_florins"], "black_market"))
            continue
        roof = first_free_roof(tx.state, good)
        depots = [(v, d) for (d, v), g in zip(data.DEPOTS.items(), tx.state.depots) if g is None]
        place, value = ((good, roof) if roof is not None
                        else (max(depots)[1], max(depots)[0]) if depots else (None, 0))
        tx.emit(ev.TomBlockTaken(block, good, place))
        if place is not None:
            tx.emit(ev.TomScored(value, "delivery"))
            if state.round <= data.FAST_DELIVERY_LAST_ROUND:
                tx.emit(ev.TomScored(data.FAST_DELIVERY_BASE - state.round, "fast_delivery"))
    tile = data.MARKET_TILES[tx.state.market_tile] if tx.state.market_tile else None
    if tile is not None and tx.state.tom.florins >= tile.florins:  # L940-944
        tx.emit(ev.TomFlorins(-tile.florins, "market"))
        if tile.points:
            tx.emit(ev.TomScored(tile.points, "market"))
        advance(tx, tile.amstel, "market")
    else:
        tx.emit(ev.TomFlorins(data.SOLO["market_florins"], "market"))
