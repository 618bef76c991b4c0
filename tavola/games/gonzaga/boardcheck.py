"""Game-level invariants of a board file (docs/board-format.md, NOTES.md "components").

`check_board` returns every violation as a sentence; an empty list means the board is playable
and faithful to what is known of the printed game. Each sentence is a `Problem`: it also says
where in the file it is and which hexes it is on, for the map editor (`gonzaga.edition`).
"""

from __future__ import annotations

import functools
from collections import Counter, deque
from collections.abc import Iterable

from .board import Board, City, Harbor, Problem, Spoken, hex_mark, rotate_axial
from .placement import counts_allowed, placement_tables
from .text import MESSAGES, card_name, fit_cards

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


def _name(board: Board, key: str, ident: str) -> str:
    """A region's, sea's or symbol's name as the board file gives it (the reader's word for it,
    where its id is the file's)."""
    entry = getattr(board, key).get(ident)
    return entry.name if entry is not None else ident


def _names(board: Board, symbols: Iterable[str]) -> str:
    return ", ".join(_name(board, "symbols", s) for s in symbols)


def _place(board: Board, place: City | Harbor) -> tuple[str, list[str]]:
    """Where a city or harbor is in the file, and its hex."""
    key = "cities" if isinstance(place, City) else "harbors"
    return _where(board, key, place.id), [hex_mark(place.at)]


def _hexes(board: Board, hexes: Iterable[int]) -> list[str]:
    return [hex_mark(board.coords[h]) for h in hexes]


def _said(key: str, where: str = "", marks: Iterable[str] = (), **fields: object) -> Problem:
    """The check's sentence `key` of the text layer, in English, worded anew by the editor."""
    return Problem.said(MESSAGES[key], where, marks, **fields)


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
        return [_said("check.no-hex", "/terrain")]
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
        problems.append(_said("check.not-connected", "/terrain",
                              [hex_mark(at) for at in lost[:50]], count=len(lost),
                              start=board.coords[0], lost=lost[:5]))
    for rid in board.regions:
        if not board.region_hexes(rid):
            problems.append(_said("check.region-no-land",
                                  _where(board, "regions", rid),
                                  region=_name(board, "regions", rid)))
    for sid in board.seas:
        if sid not in board.sea_of:
            problems.append(_said("check.sea-no-water", _where(board, "seas", sid),
                                  sea=_name(board, "seas", sid)))
    return problems


def _check_places(board: Board) -> list[Problem]:
    problems = []
    if len(board.regions) != 6:
        problems.append(_said("check.regions", "/regions",
                              count=len(board.regions)))
    if len(board.seas) != 6:
        problems.append(_said("check.seas", "/seas", count=len(board.seas)))
    cities = Counter(c.region for c in board.cities.values())
    harbors = Counter(h.region for h in board.harbors.values())
    for rid in board.regions:
        where = _where(board, "regions", rid)
        if cities[rid] != 4:
            problems.append(_said("check.region-cities", where,
                                  [hex_mark(c.at) for c in board.cities.values()
                                  if c.region == rid], region=_name(board, "regions", rid),
                                  count=cities[rid]))
        if harbors[rid] != 4:
            problems.append(_said("check.region-harbors", where,
                                  [hex_mark(h.at) for h in board.harbors.values()
                                  if h.region == rid], region=_name(board, "regions", rid),
                                  count=harbors[rid]))
    per_sea = Counter(h.sea for h in board.harbors.values())
    for sid in board.seas:
        if per_sea[sid] != 4:
            problems.append(_said("check.sea-harbors", _where(board, "seas", sid),
                                  [hex_mark(h.at) for h in board.harbors.values()
                                  if h.sea == sid], sea=_name(board, "seas", sid),
                                  count=per_sea[sid]))
    used: dict[int, str] = {}
    for place in [*board.cities.values(), *board.harbors.values()]:
        where, mark = _place(board, place)
        if place.hex in used:
            problems.append(_said("check.share-hex", where + "/at", mark,
                                  place=place.name, other=used[place.hex], at=place.at))
        used[place.hex] = place.name
        if board.region_of[place.hex] != place.region:
            problems.append(_said("check.off-region", where + "/at", mark,
                                  place=place.name, at=place.at,
                                  region=_name(board, "regions", place.region)))
    for h in board.harbors.values():
        if not any(board.sea_of[n] == h.sea for n in board.neighbours[h.hex]):
            where, mark = _place(board, h)
            problems.append(_said("check.harbor-dry", where + "/at", mark,
                                  harbor=h.name, at=h.at, sea=_name(board, "seas", h.sea)))
    germanicum = [h for h in board.harbors.values() if h.sea == "mare-germanicum"]
    split = Counter(h.region for h in germanicum)
    if split != Counter({"britannia": 2, "germania": 2}):
        problems.append(_said("check.germanicum", "/harbors",
                              [hex_mark(h.at) for h in germanicum], split=dict(split)))
    return problems


def _check_symbols(board: Board) -> list[Problem]:
    problems = []
    if len(board.symbols) != 8:
        problems.append(_said("check.symbols", "/symbols",
                              count=len(board.symbols)))
    count = Counter(c.symbol for c in board.cities.values())
    for sid in board.symbols:
        if count[sid] != 3:
            problems.append(_said("check.symbol-cities", _where(board, "symbols", sid),
                                  [hex_mark(c.at) for c in board.cities.values()
                                  if c.symbol == sid], symbol=_name(board, "symbols", sid),
                                  count=count[sid]))
    groups: dict[int, list[str]] = {}
    for r in board.regions.values():
        groups.setdefault(r.objective_group, []).append(r.id)
    if sorted(len(g) for g in groups.values()) != [3, 3]:
        problems.append(_said("check.groups", "/regions",
                              found={k: len(v) for k, v in groups.items()}))
        return problems
    for group, regions in groups.items():
        symbols = sorted(s.id for s in board.symbols.values() if s.objective_group == group)
        if len(symbols) != 4:
            problems.append(_said("check.group-symbols", "/symbols", group=group,
                                  count=len(symbols)))
        for rid in regions:
            mine = [c for c in board.cities.values() if c.region == rid]
            have = sorted(c.symbol for c in mine)
            if have != symbols:
                problems.append(_said("check.region-symbols",
                                      _where(board, "regions", rid),
                                      [hex_mark(c.at) for c in mine],
                                      region=_name(board, "regions", rid), group=group,
                                      symbols=_names(board, symbols), have=_names(board, have)))
    pairs = Counter(tuple(sorted(o.symbols, key=lambda s: board.symbols[s].objective_group))
                    for o in board.objectives.values())
    g1 = [s.id for s in board.symbols.values() if s.objective_group == 1]
    g2 = [s.id for s in board.symbols.values() if s.objective_group == 2]
    expected = Counter((a, b) for a in g1 for b in g2)
    if len(board.objectives) != 16 or pairs != expected:
        problems.append(_said("check.objectives", "/objectives"))
    return problems


def _check_barriers(board: Board) -> list[Problem]:
    problems = []
    edges = [f"/barriers/{g}/edges/{e}" for g, group in enumerate(board.model.barriers)
             for e in range(len(group.edges))]
    for (name, a, b), pointer in zip(board.barriers, edges, strict=True):
        edge = f"{board.coords[a]}-{board.coords[b]}"
        marks = _hexes(board, (a, b))
        if b not in board.neighbours[a]:
            problems.append(_said("check.barrier-apart", pointer, marks, edge=edge,
                                  name=name))
        elif None in (board.region_of[a], board.region_of[b]):
            problems.append(_said("check.barrier-water", pointer, marks, edge=edge,
                                  name=name))
        elif board.region_of[a] == board.region_of[b]:
            problems.append(_said("check.barrier-inside", pointer, marks, edge=edge,
                                  name=name))
    return problems


def _check_fiefs(board: Board) -> list[Problem]:
    problems = []
    numbers = tuple(sorted(board.fiefs))
    if numbers != FIEF_NUMBERS:
        problems.append(_said("check.fief-numbers", "/fiefs", found=list(numbers)))
    pieces: dict[tuple[Cells, Cells], int] = {}
    shapes: dict[int, set[Cells]] = {3: set(), 4: set()}
    for f in board.fiefs.values():
        where = _where(board, "fiefs", f.number)
        cells = set(f.hexes)
        if len(cells) != len(f.hexes) or len(cells) not in (3, 4):
            problems.append(_said("check.fief-size", where + "/hexes", fief=f.number))
            continue
        if f.hexes[0] != (0, 0):
            problems.append(_said("check.fief-anchor", where + "/hexes/0",
                                  fief=f.number))
        if not _connected(cells):
            problems.append(_said("check.fief-apart", where + "/hexes", fief=f.number))
        castles = set(f.castles)
        if len(castles) < 2 or not castles <= cells or len(castles) != len(f.castles):
            problems.append(_said("check.fief-castles", where + "/castles",
                                  fief=f.number))
        shapes[len(cells)].add(free_shape(cells))
        key = fixed_piece(f.hexes, f.castles)
        if key in pieces:
            problems.append(_said("check.fief-twins", where, other=pieces[key],
                                  fief=f.number))
        pieces[key] = f.number
    if len(shapes[3]) != 3:
        problems.append(_said("check.shapes-3", "/fiefs", count=len(shapes[3])))
    if len(shapes[4]) != 7:
        problems.append(_said("check.shapes-4", "/fiefs", count=len(shapes[4])))
    return problems


def _check_scenarios(board: Board) -> list[Problem]:
    problems = []
    if len(board.scenarios) != 16:
        problems.append(_said("check.scenarios", "/scenarios",
                              count=len(board.scenarios)))
    seen = set()
    for s in board.scenarios.values():
        where = _where(board, "scenarios", s.name)
        if s.players not in (2, 3, 4):
            problems.append(_said("check.scenario-players", where + "/players",
                                  scenario=s.name, players=s.players))
        inactive = len(board.regions) - len(set(s.flourishing))
        if not 1 <= inactive <= 3:
            problems.append(_said("check.scenario-inactive", where + "/flourishing",
                                  scenario=s.name, count=inactive))
        key = (s.players, frozenset(s.flourishing))
        if key in seen:
            problems.append(_said("check.scenario-twice", where, scenario=s.name,
                                  players=s.players))
        seen.add(key)
    for n in (2, 3, 4):
        if not board.scenarios_for(n):
            problems.append(_said("check.no-scenario", "/scenarios", players=n))
    name, flourishing = COLOMBO
    colombo = board.scenarios.get(name)
    if colombo is None or set(colombo.flourishing) != flourishing:
        problems.append(_said("check.colombo", "/scenarios" if colombo is None else
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
                problems.append(_said("check.fief-no-fit", _where(board, "fiefs", number),
                                      fief=number, card=card))
            for rid, r in board.region_index.items():
                if (ok & fp.regions[:, r]).any():
                    fits.setdefault((rid, card), []).append(number)
    for rid in board.regions:
        for card in FIT_CARDS:
            if not fits.get((rid, card)):
                problems.append(_said("check.region-no-fit", _where(board, "regions", rid),
                                      _hexes(board, board.region_hexes(rid)),
                                      region=Spoken(functools.partial(card_name, board, rid)),
                                      card=card))
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
