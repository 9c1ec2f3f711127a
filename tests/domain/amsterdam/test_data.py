"""The component tables satisfy every constraint AMSTERDAM.md §7.3 draws from the rulebook
(rules/amsterdam.fr.txt line numbers in each docstring), and every reconstructed table
says so."""

from __future__ import annotations

from collections import Counter

from domain.amsterdam import data
from domain.amsterdam.board import largest_group


def test_every_reconstructed_table_says_so():
    reconstructed = [k for k, v in data.PROVENANCE.items() if v.startswith("reconstructed")]
    assert set(reconstructed) >= {"card_costs", "card_timings", "craftsman_trades", "building_types",
                                  "districts", "city", "harbour", "amstel", "docker_building",
                                  "black_market", "goods_per_type", "opening_offer"}
    assert data.PROVENANCE["market_tiles"].startswith("rulebook")


def test_card_counts():
    """L1025-1033: 9 craftsman types x 6, 54 buildings in 11 types, 6 plan districts x 4."""
    kinds = Counter(c.kind for c in data.CARDS.values())
    assert kinds == {data.CRAFTSMAN: 54, data.BUILDING: 54, data.PLAN: 24}
    trades = Counter(c.group for c in data.CARDS.values() if c.kind == data.CRAFTSMAN)
    assert len(trades) == 9 and set(trades.values()) == {6}
    assert len({c.group for c in data.CARDS.values() if c.kind == data.BUILDING}) == 11
    plans = Counter(c.group for c in data.CARDS.values() if c.kind == data.PLAN)
    assert len(plans) == 6 and set(plans.values()) == {4}


def test_d1_costs():
    """L470: Jan activates a craftsman (001) and a pink plan for 3 resources; L919: a
    Haarlemmerbuurt plan costs 2 and ties for the cheapest of a 4-card offer; 1-4 cubes."""
    pink_plans = [c for c in data.CARDS.values() if c.kind == data.PLAN and c.cost[0] == "pink"]
    assert len(data.CARDS["001"].cost) + len(pink_plans[0].cost) == 3
    assert all(len(c.cost) == 2 for c in data.CARDS.values() if c.group == "Haarlemmerbuurt")
    assert all(1 <= len(c.cost) <= 4 for c in data.CARDS.values())
    assert all(set(c.cost) <= set(data.COLOURS) for c in data.CARDS.values())


def test_d2_timings_the_text_fixes():
    """L692-696 (007, 011, 086 at the end), L1039-1041 and the card texts of §4."""
    timing = {cid: c.timing for cid, c in data.CARDS.items()}
    for cid in ("007", "008", "010", "011", "086", "107"):
        assert timing[cid] == data.END
    assert timing["049"] == data.PHASE_I
    assert all(timing[c] == data.II for c in ("051", "052", "053", "054"))
    assert all(timing[c] == data.PERMANENT for c in ("033", "034", "039"))
    assert all(timing[c] == data.III for c in ("021", "022", "070", "097", "098"))
    assert all(c.timing == data.III for c in data.CARDS.values() if c.kind == data.PLAN)


def test_d3_d4_groups_and_the_churches():
    """L1513: 067 is Oude Kerk; 068-069 print the same text (A9); Westerkerk and Zuiderkerk
    pair with them; 088-090 refer to Montelbaanstoren, so they are not it."""
    assert {data.CARDS[c].group for c in ("067", "068", "069")} == {"Oude Kerk"}
    groups = Counter(c.group for c in data.CARDS.values())
    assert groups["Westerkerk"] == 3 and groups["Zuiderkerk"] == 3
    assert all(data.CARDS[c].group != "Montelbaanstoren" for c in ("088", "089", "090"))
    assert groups["Montelbaanstoren"] >= 1
    assert data.CARDS["044"].effect.name == "carpenters" and groups["carpenter"] == 6


def test_d5_plantage_is_pink():
    """L486: Jan's card 001 (Plantage) works with a pink plan."""
    assert data.DISTRICTS["colour"]["Plantage"] == "pink"
    assert sorted(data.DISTRICTS["colour"].values()) == sorted(data.COLOURS)


def test_d6_city():
    """L494-506, L762, L796, L964, card 025: 36 blocks, 6 per district, costs in the
    district colour; a pink block of 2; a grey double block of 2 with a block to its right
    across a bridge; black's cheapest is 2; violet has >= 3 blocks tied at its cheapest,
    one next to another; a block of cost 1 exists; groups of 6 are possible."""
    blocks = data.BLOCKS.values()
    assert len(data.BLOCKS) == 36
    assert Counter(b.district for b in blocks) == {d: 6 for d in data.DISTRICTS["colour"]}
    assert any(b.colour == "pink" and b.cost == 2 for b in blocks)
    assert any(b.colour == "grey" and b.double and b.cost == 2
               and any(data.BLOCKS[n].x == b.x + 1 and data.BLOCKS[n].y == b.y
                       for n in data.BRIDGES[b.id]) for b in blocks)
    assert min(b.cost for b in blocks if b.colour == "black") == 2
    violet = [b for b in blocks if b.colour == "violet"]
    cheapest = [b for b in violet if b.cost == min(v.cost for v in violet)]
    assert len(cheapest) >= 3
    assert any(n in {c.id for c in cheapest} for b in cheapest for n in data.BRIDGES[b.id])
    assert any(b.cost == 1 for b in blocks)
    for district in data.DISTRICTS["colour"]:
        assert largest_group([b.id for b in blocks if b.district == district]) == 6
    assert largest_group(data.BLOCK_IDS) == 36
    assert all(b.id in data.BRIDGES[n] for b in blocks for n in data.BRIDGES[b.id])  # symmetric


def _water_distance(origin: str, target: str) -> int:
    """The fewest water spaces on a path (B27)."""
    best = {origin: 0}
    frontier = [origin]
    while frontier:
        node = frontier.pop(0)
        for other in data.HARBOUR[node]:
            cost = best[node] + (other in data.WATER)
            if other not in best or cost < best[other]:
                best[other] = cost
                frontier.append(other)
    return best[target]


def test_d7_harbour():
    """L544-570, L656, L780, L964: beer's rightmost roof is 4, filled last; cheese's second
    roof 6 below its first; tulip and lace offer 5; lace is the nearest place to tulip, 2
    water spaces away; tulip landing -> 1 water -> yellow pontoon; one pontoon per colour."""
    assert data.ROOFS["beer"][-1] == 4 and list(data.ROOFS["beer"]) == sorted(data.ROOFS["beer"], reverse=True)
    assert data.ROOFS["cheese"][1] == 6 and data.ROOFS["cheese"][0] > 6
    assert 5 in data.ROOFS["tulip"] and 5 in data.ROOFS["lace"]
    assert set(data.ROOFS) == set(data.GOODS) and all(len(r) == 3 for r in data.ROOFS.values())
    places = [g for g in data.GOODS if g != "tulip"] + list(data.DEPOTS)
    distances = {p: _water_distance("tulip", p) for p in places}
    assert distances["lace"] == 2 and all(d > 2 for p, d in distances.items() if p != "lace")
    assert any(w in data.HARBOUR["tulip"] and "P:yellow" in data.HARBOUR[w] for w in data.WATER)
    assert sorted(data.PONTOONS.values()) == sorted(data.DOCKER_COLOURS)
    assert len(data.DEPOTS) == 4 and data.START in data.HARBOUR


def test_d8_amstel():
    """L245, L601, L960: 19 spaces, 4 bridges, the mouth last; a 4-point bridge passed by a
    2-space move, a 2-point bridge passed by a 1-space move."""
    bridges = data.AMSTEL["bridges"]
    assert data.AMSTEL_SPACES == 19 and len(bridges) == 4
    assert 4 in bridges.values() and 2 in bridges.values()
    assert all(0 <= k < data.AMSTEL_SPACES for k in bridges)


def test_d9_docker_building():
    """L540, L565: the second space is worth 7; earlier dockers score more."""
    values = data.DOCKER_BUILDING["values"]
    assert len(values) == 4 and values[1] == 7 and list(values) == sorted(values, reverse=True)


def test_d10_black_market():
    """L580, L858-864: 9 spaces, one per good; crystal in the centre, coffee in a corner."""
    grid = data.BLACK_MARKET["grid"]
    assert sorted(grid) == sorted(data.GOODS) and len(set(grid.values())) == 9
    assert grid["crystal"] == (1, 1) and grid["coffee"] in {(0, 0), (0, 2), (2, 0), (2, 2)}


def test_d11_goods_and_market_tiles():
    """L38-48: 36 goods of 9 types; L2130-2255: 8 A, 8 B, 4 C_A, 4 C_B (CA 24 read CB 24)."""
    assert data.GOODS_PER_TYPE["count"] * len(data.GOODS) == 36
    halves = Counter((t.half, t.expansion) for t in data.MARKET_TILES.values())
    assert halves == {("A", False): 8, ("B", False): 8, ("A", True): 4, ("B", True): 4}
    assert data.MARKET_TILES["CB24"].half == "B"


def test_printed_scales():
    """L589-594 Amstel cost, L673-680 penalties (4 tokens = 22), L641 fast delivery."""
    assert [data.amstel_cost(n) for n in (1, 2, 3, 4)] == [1, 3, 5, 7]
    assert [data.penalty_points(n) for n in (1, 2, 3, 4, 5)] == [3, 8, 15, 22, 29]
    assert [data.FAST_DELIVERY_BASE - r for r in range(1, 8)] == [7, 6, 5, 4, 3, 2, 1]
