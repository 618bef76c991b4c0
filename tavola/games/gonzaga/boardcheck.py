"""Game-level invariants of a board file (docs/board-format.md, NOTES.md "components").

`check_board` returns every violation as a sentence; an empty list means the board is playable
and faithful to what is known of the printed game. Each sentence is a `Problem`: it also says
where in the file it is and which hexes it is on, for the map editor (`gonzaga.edition`).
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable

from .board import Board, City, Harbor, Problem, hex_mark, rotate_axial
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


def _where(board: Board, key: str, ident: object) -> str:
    """The JSON Pointer of a board file's entry (`key` a list of it) by its id or number."""
    entries = getattr(board.model, key)
    for i, entry in enumerate(entries):
        if getattr(entry, "id", getattr(entry, "number", getattr(entry, "name", None))) == ident:
            return f"/{key}/{i}"
    return f"/{key}"


def _place(board: Board, place: City | Harbor) -> tuple[str, list[str]]:
    """Where a city or harbor is in the file, and its hex."""
    key = "cities" if isinstance(place, City) else "harbors"
    return _where(board, key, place.id), [hex_mark(place.at)]


def _hexes(board: Board, hexes: Iterable[int]) -> list[str]:
    return [hex_mark(board.coords[h]) for h in hexes]


def check_board(board: Board) -> list[Problem]:
    problems: list[Problem] = []
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


def _check_grid(board: Board) -> list[Problem]:
    problems = []
    if board.hex_count == 0:
        return [Problem("the board has no playable hex", "/terrain")]
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
        problems.append(Problem(f"the grid is not connected: {len(lost)} hexes cannot be reached "
                                f"from {board.coords[0]}, e.g. {lost[:5]}", "/terrain",
                                [hex_mark(at) for at in lost[:50]]))
    for rid in board.regions:
        if not board.region_hexes(rid):
            problems.append(Problem(f"region {rid} has no land hex",
                                    _where(board, "regions", rid)))
    for sid in board.seas:
        if sid not in board.sea_of:
            problems.append(Problem(f"sea {sid} has no sea hex", _where(board, "seas", sid)))
    return problems


def _check_places(board: Board) -> list[Problem]:
    problems = []
    if len(board.regions) != 6:
        problems.append(Problem(f"there must be 6 regions, found {len(board.regions)}",
                                "/regions"))
    if len(board.seas) != 6:
        problems.append(Problem(f"there must be 6 seas, found {len(board.seas)}", "/seas"))
    cities = Counter(c.region for c in board.cities.values())
    harbors = Counter(h.region for h in board.harbors.values())
    for rid in board.regions:
        where = _where(board, "regions", rid)
        if cities[rid] != 4:
            problems.append(Problem(f"region {rid} must have 4 cities, has {cities[rid]}", where,
                                    [hex_mark(c.at) for c in board.cities.values()
                                     if c.region == rid]))
        if harbors[rid] != 4:
            problems.append(Problem(f"region {rid} must have 4 harbors, has {harbors[rid]}",
                                    where, [hex_mark(h.at) for h in board.harbors.values()
                                            if h.region == rid]))
    per_sea = Counter(h.sea for h in board.harbors.values())
    for sid in board.seas:
        if per_sea[sid] != 4:
            problems.append(Problem(f"sea {sid} must have 4 harbors, has {per_sea[sid]}",
                                    _where(board, "seas", sid),
                                    [hex_mark(h.at) for h in board.harbors.values()
                                     if h.sea == sid]))
    used: dict[int, str] = {}
    for place in [*board.cities.values(), *board.harbors.values()]:
        where, mark = _place(board, place)
        if place.hex in used:
            problems.append(Problem(f"{place.name} and {used[place.hex]} share hex {place.at}",
                                    where + "/at", mark))
        used[place.hex] = place.name
        if board.region_of[place.hex] != place.region:
            problems.append(Problem(f"{place.name} at {place.at} is not on a land hex of "
                                    f"{place.region}", where + "/at", mark))
    for h in board.harbors.values():
        if not any(board.sea_of[n] == h.sea for n in board.neighbours[h.hex]):
            where, mark = _place(board, h)
            problems.append(Problem(f"harbor {h.name} at {h.at} does not touch {h.sea}",
                                    where + "/at", mark))
    germanicum = [h for h in board.harbors.values() if h.sea == "mare-germanicum"]
    split = Counter(h.region for h in germanicum)
    if split != Counter({"britannia": 2, "germania": 2}):
        problems.append(Problem(f"Mare Germanicum (sea mare-germanicum) must have 2 harbors in "
                                f"Britannia and 2 in Germania, has {dict(split)}", "/harbors",
                                [hex_mark(h.at) for h in germanicum]))
    return problems


def _check_symbols(board: Board) -> list[Problem]:
    problems = []
    if len(board.symbols) != 8:
        problems.append(Problem(f"there must be 8 city symbols, found {len(board.symbols)}",
                                "/symbols"))
    count = Counter(c.symbol for c in board.cities.values())
    for sid in board.symbols:
        if count[sid] != 3:
            problems.append(Problem(f"symbol {sid} must be on 3 cities, is on {count[sid]}",
                                    _where(board, "symbols", sid),
                                    [hex_mark(c.at) for c in board.cities.values()
                                     if c.symbol == sid]))
    groups: dict[int, list[str]] = {}
    for r in board.regions.values():
        groups.setdefault(r.objective_group, []).append(r.id)
    if sorted(len(g) for g in groups.values()) != [3, 3]:
        problems.append(Problem(f"regions must split into two objective groups of 3, found "
                                f"{ {k: len(v) for k, v in groups.items()} }", "/regions"))
        return problems
    for group, regions in groups.items():
        symbols = sorted(s.id for s in board.symbols.values() if s.objective_group == group)
        if len(symbols) != 4:
            problems.append(Problem(f"objective group {group} must have 4 symbols, has "
                                    f"{len(symbols)}", "/symbols"))
        for rid in regions:
            mine = [c for c in board.cities.values() if c.region == rid]
            have = sorted(c.symbol for c in mine)
            if have != symbols:
                problems.append(Problem(f"the cities of {rid} must carry each symbol of group "
                                        f"{group} once ({', '.join(symbols)}), carry "
                                        f"{', '.join(have)}", _where(board, "regions", rid),
                                        [hex_mark(c.at) for c in mine]))
    pairs = Counter(tuple(sorted(o.symbols, key=lambda s: board.symbols[s].objective_group))
                    for o in board.objectives.values())
    g1 = [s.id for s in board.symbols.values() if s.objective_group == 1]
    g2 = [s.id for s in board.symbols.values() if s.objective_group == 2]
    expected = Counter((a, b) for a in g1 for b in g2)
    if len(board.objectives) != 16 or pairs != expected:
        problems.append(Problem("the 16 objective cards must be exactly the 4 x 4 pairs of a "
                                "group-1 and a group-2 symbol", "/objectives"))
    return problems


def _check_barriers(board: Board) -> list[Problem]:
    problems = []
    edges = [f"/barriers/{g}/edges/{e}" for g, group in enumerate(board.model.barriers)
             for e in range(len(group.edges))]
    for (name, a, b), pointer in zip(board.barriers, edges, strict=True):
        where = f"barrier {board.coords[a]}-{board.coords[b]} ({name})"
        marks = _hexes(board, (a, b))
        if b not in board.neighbours[a]:
            problems.append(Problem(f"{where} does not join neighbouring hexes", pointer, marks))
        elif None in (board.region_of[a], board.region_of[b]):
            problems.append(Problem(f"{where} must join two land hexes", pointer, marks))
        elif board.region_of[a] == board.region_of[b]:
            problems.append(Problem(f"{where} must lie on a border between two regions",
                                    pointer, marks))
    return problems


def _check_fiefs(board: Board) -> list[Problem]:
    problems = []
    numbers = tuple(sorted(board.fiefs))
    if numbers != FIEF_NUMBERS:
        problems.append(Problem(f"fiefs must be numbered 10, 20, ... 120, found "
                                f"{list(numbers)}", "/fiefs"))
    pieces: dict[tuple[Cells, Cells], int] = {}
    shapes: dict[int, set[Cells]] = {3: set(), 4: set()}
    for f in board.fiefs.values():
        where = _where(board, "fiefs", f.number)
        cells = set(f.hexes)
        if len(cells) != len(f.hexes) or len(cells) not in (3, 4):
            problems.append(Problem(f"fief {f.number} must have 3 or 4 distinct hexes",
                                    where + "/hexes"))
            continue
        if f.hexes[0] != (0, 0):
            problems.append(Problem(f"fief {f.number}: its first hex (the anchor) must be "
                                    "[0, 0]", where + "/hexes/0"))
        if not _connected(cells):
            problems.append(Problem(f"fief {f.number} is not one connected piece",
                                    where + "/hexes"))
        castles = set(f.castles)
        if len(castles) < 2 or not castles <= cells or len(castles) != len(f.castles):
            problems.append(Problem(f"fief {f.number} needs two or more castles on distinct "
                                    "hexes of its own", where + "/castles"))
        shapes[len(cells)].add(free_shape(cells))
        key = fixed_piece(f.hexes, f.castles)
        if key in pieces:
            problems.append(Problem(f"fiefs {pieces[key]} and {f.number} cannot be told apart",
                                    where))
        pieces[key] = f.number
    if len(shapes[3]) != 3:
        problems.append(Problem(f"all three 3-hex shapes must occur, found {len(shapes[3])}",
                                "/fiefs"))
    if len(shapes[4]) != 7:
        problems.append(Problem(f"all seven 4-hex shapes must occur, found {len(shapes[4])}",
                                "/fiefs"))
    return problems


def _check_scenarios(board: Board) -> list[Problem]:
    problems = []
    if len(board.scenarios) != 16:
        problems.append(Problem(f"there must be 16 scenario tiles, found "
                                f"{len(board.scenarios)}", "/scenarios"))
    seen = set()
    for s in board.scenarios.values():
        where = _where(board, "scenarios", s.name)
        if s.players not in (2, 3, 4):
            problems.append(Problem(f"scenario {s.name} is for {s.players} players (2 to 4 "
                                    "allowed)", where + "/players"))
        inactive = len(board.regions) - len(set(s.flourishing))
        if not 1 <= inactive <= 3:
            problems.append(Problem(f"scenario {s.name} must leave 1 to 3 regions inactive, "
                                    f"leaves {inactive}", where + "/flourishing"))
        key = (s.players, frozenset(s.flourishing))
        if key in seen:
            problems.append(Problem(f"scenario {s.name} repeats another tile for {s.players} "
                                    "players", where))
        seen.add(key)
    for n in (2, 3, 4):
        if not board.scenarios_for(n):
            problems.append(Problem(f"no scenario for {n} players", "/scenarios"))
    name, flourishing = COLOMBO
    colombo = board.scenarios.get(name)
    if colombo is None or set(colombo.flourishing) != flourishing:
        problems.append(Problem("scenario Colombo must make Hispania, Francia, Britannia and "
                                "Italia flourish", "/scenarios" if colombo is None else
                                _where(board, "scenarios", name) + "/flourishing"))
    return problems


#: Each action card by name with the (cities, harbors) counts it is tested with; the Cities card
#: also with empty hexes only (from the rules' one table, `ACTION_COVERAGE`).
FIT_CARDS = {name: (lambda c, h, allowed=allowed: counts_allowed(allowed, c, h))
             for name, allowed in fit_cards().items()}


def _check_fits(board: Board) -> list[Problem]:
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
                problems.append(Problem(f"fief {number} has no legal placement with the {card} "
                                        "card", _where(board, "fiefs", number)))
            for rid, r in board.region_index.items():
                if (ok & fp.regions[:, r]).any():
                    fits.setdefault((rid, card), []).append(number)
    for rid in board.regions:
        for card in FIT_CARDS:
            if not fits.get((rid, card)):
                problems.append(Problem(f"no fief can be placed in {rid} with the {card} card",
                                        _where(board, "regions", rid),
                                        _hexes(board, board.region_hexes(rid))))
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
