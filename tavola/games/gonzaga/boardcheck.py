"""Game-level invariants of a board file (docs/board-format.md, NOTES.md "components").

`check_board` returns every violation as a sentence; an empty list means the board is playable
and faithful to what is known of the printed game.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable

from .board import Board, rotate_axial
from .placement import counts_allowed, placement_tables
from .text import fit_cards

Cells = tuple[tuple[int, int], ...]

FIEF_NUMBERS = tuple(range(10, 130, 10))
COLOMBO = ("Colombo", {"hispania", "francia", "britannia", "italia"})


def _normalise(cells: Iterable[tuple[int, int]]) -> Cells:
    cells = list(cells)
    q0 = min(q for q, _ in cells)
    r0 = min(r for _, r in cells)
    return tuple(sorted((q - q0, r - r0) for q, r in cells))


def _reflect(cells: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    return [(q, -q - r) for q, r in cells]


def free_shape(cells: Iterable[tuple[int, int]]) -> Cells:
    """A canonical form of a polyhex up to translation, rotation and reflection."""
    cells = list(cells)
    forms = []
    for mirror in (cells, _reflect(cells)):
        for turns in range(6):
            forms.append(_normalise(rotate_axial(q, r, turns) for q, r in mirror))
    return min(forms)


def fixed_piece(cells: Iterable[tuple[int, int]], castles: Iterable[tuple[int, int]]
                ) -> tuple[Cells, Cells]:
    """A canonical form of a fief (shape and castles) up to translation and rotation only."""
    cells, castles = list(cells), set(castles)
    forms = []
    for turns in range(6):
        rot = [(rotate_axial(q, r, turns), (q, r) in castles) for q, r in cells]
        q0 = min(c[0][0] for c in rot)
        r0 = min(c[0][1] for c in rot)
        shape = tuple(sorted((q - q0, r - r0) for (q, r), _ in rot))
        marks = tuple(sorted((q - q0, r - r0) for (q, r), k in rot if k))
        forms.append((shape, marks))
    return min(forms)


def _connected(cells: set[tuple[int, int]]) -> bool:
    if not cells:
        return False
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        q, r = todo.pop()
        for dq, dr in ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)):
            n = (q + dq, r + dr)
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def check_board(board: Board) -> list[str]:
    problems: list[str] = []
    problems += _check_grid(board)
    problems += _check_places(board)
    problems += _check_symbols(board)
    problems += _check_barriers(board)
    fief_problems = _check_fiefs(board)
    problems += fief_problems
    problems += _check_scenarios(board)
    if not fief_problems and not problems:
        problems += _check_fits(board)
    return problems


def _check_grid(board: Board) -> list[str]:
    problems = []
    if board.hex_count == 0:
        return ["the board has no playable hex"]
    seen = {0}
    todo = deque([0])
    while todo:
        h = todo.popleft()
        for n in board.neighbours[h]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    if len(seen) != board.hex_count:
        lost = [board.coords[h] for h in range(board.hex_count) if h not in seen]
        problems.append(f"the grid is not connected: {len(lost)} hexes cannot be reached from "
                        f"{board.coords[0]}, e.g. {lost[:5]}")
    for rid in board.regions:
        if not board.region_hexes(rid):
            problems.append(f"region {rid} has no land hex")
    for sid in board.seas:
        if sid not in board.sea_of:
            problems.append(f"sea {sid} has no sea hex")
    return problems


def _check_places(board: Board) -> list[str]:
    problems = []
    if len(board.regions) != 6:
        problems.append(f"there must be 6 regions, found {len(board.regions)}")
    if len(board.seas) != 6:
        problems.append(f"there must be 6 seas, found {len(board.seas)}")
    cities = Counter(c.region for c in board.cities.values())
    harbors = Counter(h.region for h in board.harbors.values())
    for rid in board.regions:
        if cities[rid] != 4:
            problems.append(f"region {rid} must have 4 cities, has {cities[rid]}")
        if harbors[rid] != 4:
            problems.append(f"region {rid} must have 4 harbors, has {harbors[rid]}")
    per_sea = Counter(h.sea for h in board.harbors.values())
    for sid in board.seas:
        if per_sea[sid] != 4:
            problems.append(f"sea {sid} must have 4 harbors, has {per_sea[sid]}")
    used: dict[int, str] = {}
    for place in [*board.cities.values(), *board.harbors.values()]:
        if place.hex in used:
            problems.append(f"{place.name} and {used[place.hex]} share hex {place.at}")
        used[place.hex] = place.name
        if board.region_of[place.hex] != place.region:
            problems.append(f"{place.name} at {place.at} is not on a land hex of {place.region}")
    for h in board.harbors.values():
        if not any(board.sea_of[n] == h.sea for n in board.neighbours[h.hex]):
            problems.append(f"harbor {h.name} at {h.at} does not touch {h.sea}")
    germanicum = [h for h in board.harbors.values() if h.sea == "mare-germanicum"]
    split = Counter(h.region for h in germanicum)
    if split != Counter({"britannia": 2, "germania": 2}):
        problems.append(f"Mare Germanicum (sea mare-germanicum) must have 2 harbors in Britannia "
                        f"and 2 in Germania, has {dict(split)}")
    return problems


def _check_symbols(board: Board) -> list[str]:
    problems = []
    if len(board.symbols) != 8:
        problems.append(f"there must be 8 city symbols, found {len(board.symbols)}")
    count = Counter(c.symbol for c in board.cities.values())
    for sid in board.symbols:
        if count[sid] != 3:
            problems.append(f"symbol {sid} must be on 3 cities, is on {count[sid]}")
    groups: dict[int, list[str]] = {}
    for r in board.regions.values():
        groups.setdefault(r.objective_group, []).append(r.id)
    if sorted(len(g) for g in groups.values()) != [3, 3]:
        problems.append(f"regions must split into two objective groups of 3, found "
                        f"{ {k: len(v) for k, v in groups.items()} }")
        return problems
    for group, regions in groups.items():
        symbols = sorted(s.id for s in board.symbols.values() if s.objective_group == group)
        if len(symbols) != 4:
            problems.append(f"objective group {group} must have 4 symbols, has {len(symbols)}")
        for rid in regions:
            have = sorted(c.symbol for c in board.cities.values() if c.region == rid)
            if have != symbols:
                problems.append(f"the cities of {rid} must carry each symbol of group {group} "
                                f"once ({', '.join(symbols)}), carry {', '.join(have)}")
    pairs = Counter(tuple(sorted(o.symbols, key=lambda s: board.symbols[s].objective_group))
                    for o in board.objectives.values())
    g1 = [s.id for s in board.symbols.values() if s.objective_group == 1]
    g2 = [s.id for s in board.symbols.values() if s.objective_group == 2]
    expected = Counter((a, b) for a in g1 for b in g2)
    if len(board.objectives) != 16 or pairs != expected:
        problems.append("the 16 objective cards must be exactly the 4 x 4 pairs of a group-1 and "
                        "a group-2 symbol")
    return problems


def _check_barriers(board: Board) -> list[str]:
    problems = []
    for name, a, b in board.barriers:
        where = f"barrier {board.coords[a]}-{board.coords[b]} ({name})"
        if b not in board.neighbours[a]:
            problems.append(f"{where} does not join neighbouring hexes")
        elif None in (board.region_of[a], board.region_of[b]):
            problems.append(f"{where} must join two land hexes")
        elif board.region_of[a] == board.region_of[b]:
            problems.append(f"{where} must lie on a border between two regions")
    return problems


def _check_fiefs(board: Board) -> list[str]:
    problems = []
    numbers = tuple(sorted(board.fiefs))
    if numbers != FIEF_NUMBERS:
        problems.append(f"fiefs must be numbered 10, 20, ... 120, found {list(numbers)}")
    pieces: dict[tuple[Cells, Cells], int] = {}
    shapes: dict[int, set[Cells]] = {3: set(), 4: set()}
    for f in board.fiefs.values():
        cells = set(f.hexes)
        if len(cells) != len(f.hexes) or len(cells) not in (3, 4):
            problems.append(f"fief {f.number} must have 3 or 4 distinct hexes")
            continue
        if f.hexes[0] != (0, 0):
            problems.append(f"fief {f.number}: its first hex (the anchor) must be [0, 0]")
        if not _connected(cells):
            problems.append(f"fief {f.number} is not one connected piece")
        castles = set(f.castles)
        if len(castles) < 2 or not castles <= cells or len(castles) != len(f.castles):
            problems.append(f"fief {f.number} needs two or more castles on distinct hexes of "
                            "its own")
        shapes[len(cells)].add(free_shape(cells))
        key = fixed_piece(f.hexes, f.castles)
        if key in pieces:
            problems.append(f"fiefs {pieces[key]} and {f.number} cannot be told apart")
        pieces[key] = f.number
    if len(shapes[3]) != 3:
        problems.append(f"all three 3-hex shapes must occur, found {len(shapes[3])}")
    if len(shapes[4]) != 7:
        problems.append(f"all seven 4-hex shapes must occur, found {len(shapes[4])}")
    return problems


def _check_scenarios(board: Board) -> list[str]:
    problems = []
    if len(board.scenarios) != 16:
        problems.append(f"there must be 16 scenario tiles, found {len(board.scenarios)}")
    seen = set()
    for s in board.scenarios.values():
        if s.players not in (2, 3, 4):
            problems.append(f"scenario {s.name} is for {s.players} players (2 to 4 allowed)")
        inactive = len(board.regions) - len(set(s.flourishing))
        if not 1 <= inactive <= 3:
            problems.append(f"scenario {s.name} must leave 1 to 3 regions inactive, leaves "
                            f"{inactive}")
        key = (s.players, frozenset(s.flourishing))
        if key in seen:
            problems.append(f"scenario {s.name} repeats another tile for {s.players} players")
        seen.add(key)
    for n in (2, 3, 4):
        if not board.scenarios_for(n):
            problems.append(f"no scenario for {n} players")
    name, flourishing = COLOMBO
    colombo = board.scenarios.get(name)
    if colombo is None or set(colombo.flourishing) != flourishing:
        problems.append("scenario Colombo must make Hispania, Francia, Britannia and Italia "
                        "flourish")
    return problems


#: Each action card by name with the (cities, harbors) counts it is tested with; the Cities card
#: also with empty hexes only (from the rules' one table, `ACTION_COVERAGE`).
FIT_CARDS = {name: (lambda c, h, allowed=allowed: counts_allowed(allowed, c, h))
             for name, allowed in fit_cards().items()}


def _check_fits(board: Board) -> list[str]:
    """On the empty board, every fief fits every action card somewhere, and every pair of a
    region card and an action card admits at least one fief.

    Requiring every fief to fit every card in every region would force a city next to a harbor
    in every region, which real geography does not give (Vilnius, Kraków and Buda lie far from
    any harbor); the rulebook has no such promise either, and a donation is always possible.
    """
    problems = []
    tables = placement_tables(board)
    fits: dict[tuple[str, str], list[int]] = {}
    for number in sorted(board.fiefs):
        fp = tables[number]
        for card, allows in FIT_CARDS.items():
            ok = allows(fp.cities, fp.harbors)
            if not ok.any():
                problems.append(f"fief {number} has no legal placement with the {card} card")
            for rid, r in board.region_index.items():
                if (ok & fp.regions[:, r]).any():
                    fits.setdefault((rid, card), []).append(number)
    for rid in board.regions:
        for card in FIT_CARDS:
            if not fits.get((rid, card)):
                problems.append(f"no fief can be placed in {rid} with the {card} card")
    return problems


def fit_table(board: Board) -> dict[tuple[str, str], list[int]]:
    """For each region and action card, the fiefs that fit on the empty board (for reports)."""
    tables = placement_tables(board)
    out: dict[tuple[str, str], list[int]] = {}
    for rid, r in board.region_index.items():
        for card, allows in FIT_CARDS.items():
            out[(rid, card)] = [n for n in sorted(board.fiefs)
                                if (allows(tables[n].cities, tables[n].harbors)
                                    & tables[n].regions[:, r]).any()]
    return out
