"""The browser's scripts are native modules (no build step) that import each other in layers:
no module imports itself again through others, on the platform's pages or on any game's table.

A circle of imports makes the order in which its modules run depend on which one the page
loads first (one may run before a module it imports has set its names), and no module of it can
be used without all the others: Gonzaga's board is drawn without the table's input handling.

The graph is read from the source, as the browser resolves it: `import ... from "x"`,
`export ... from "x"` and `import("x")` with a literal, each address taken relative to the
importing module's own (`/static/NAME/` serves the platform's folder, NAME `tavola`, and each
registered game's `static_dir()`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from graphlib import CycleError, TopologicalSorter
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

from tavola.testing import game_names
from tavola.web.app import STATIC
from tavola.web.site import load_sites

PLATFORM = "tavola"
GAMES = game_names("site")

# the address a module names: in a static import or re-export, a bare import, or a dynamic
# import of a string literal (one built at run time cannot be followed, and is not)
_IMPORTS = (
    re.compile(r"""^\s*(?:import|export)\b[^;'"`]*?\bfrom\s*(['"])(?P<at>[^'"]+)\1""", re.M),
    re.compile(r"""^\s*import\s*(['"])(?P<at>[^'"]+)\1""", re.M),
    re.compile(r"""\bimport\(\s*(['"])(?P<at>[^'"]+)\1\s*\)"""))

Graph = dict[str, set[str]]  # a module's address -> the addresses of the modules it imports


def folders() -> dict[str, Path]:
    """Each folder of scripts by the name it is served under (`/static/NAME/`)."""
    return {PLATFORM: STATIC, **{name: site.static_dir() for name, site in load_sites().items()}}


def imported(source: str) -> list[str]:
    """The addresses a module's source imports, as written."""
    return [m["at"] for pattern in _IMPORTS for m in pattern.finditer(source)]


def module_graph(served: Mapping[str, Path]) -> Graph:
    """Every script of the folders and the modules it imports; an address that names no
    script of them fails, naming the module that imports it."""
    graph: Graph = {}
    for name, folder in served.items():
        for path in sorted(folder.rglob("*.js")):
            here = f"/static/{name}/{path.relative_to(folder).as_posix()}"
            graph[here] = set()
            for at in imported(path.read_text(encoding="utf-8")):
                there = urljoin(here, at)
                if urlsplit(there).netloc:
                    continue  # another site's: not ours to check
                assert script_at(there, served) is not None, f"{here} imports {at}: no such script"
                graph[here].add(there)
    return graph


def script_at(address: str, served: Mapping[str, Path]) -> Path | None:
    """The file a `/static/NAME/...` address serves, if it is one of the folders' scripts."""
    parts = address.split("/", 3)
    if len(parts) < 4 or parts[:2] != ["", "static"] or parts[2] not in served:
        return None
    path = served[parts[2]] / parts[3]
    return path if path.is_file() else None


def circles(graph: Graph) -> list[list[str]]:
    """Circles of imports, each as `[a, b, ..., a]` (a imports b ...), until none is left:
    every module on a circle is on one of them."""
    left = {module: set(imports) for module, imports in graph.items()}
    found = []
    while True:
        try:
            TopologicalSorter(left).prepare()
            return found
        except CycleError as error:
            circle = list(reversed(error.args[1]))  # graphlib names each one's importer next
            found.append(circle)
            left[circle[-2]].discard(circle[-1])


def reached(graph: Graph, start: str) -> set[str]:
    """The modules that loading `start` loads."""
    seen, todo = set(), [start]
    while todo:
        for there in graph[todo.pop()] - seen:
            seen.add(there)
            todo.append(there)
    return seen


@pytest.fixture(scope="module")
def graph() -> Graph:
    return module_graph(folders())


@pytest.mark.parametrize("name", [PLATFORM, *GAMES])
def test_no_module_imports_itself_again(graph: Graph, name: str):
    """No circle of imports goes through a module of the platform's or of a game's folder."""
    own = [c for c in circles(graph) if any(m.startswith(f"/static/{name}/") for m in c)]
    assert not own, "circles of imports: " + "; ".join(" -> ".join(c) for c in own)


def test_every_games_scripts_are_read(graph: Graph):
    """The graph holds each registered game's table (its app.js imports the platform's
    connection), so that no game's circle goes unseen."""
    assert "/static/gonzaga/app.js" in graph and "/static/signorie/app.js" in graph
    for name in GAMES:
        assert f"/static/{PLATFORM}/table.js" in reached(graph, f"/static/{name}/app.js"), name


#: Gonzaga's table: the modules that draw it, and those that handle the player's choices. The
#: drawing reaches none of the input handling, so that the board may be drawn without it.
GONZAGA_DRAWING = ("hexes.js", "names.js", "board.js", "pieces.js", "hand.js", "players.js",
                   "end.js", "hints.js")
GONZAGA_INPUT = ("actions.js", "planning.js", "placing.js", "map-input.js")


def test_gonzagas_drawing_imports_no_input_handling(graph: Graph):
    at = "/static/gonzaga/"
    assert {at + m for m in GONZAGA_DRAWING + GONZAGA_INPUT} <= set(graph)
    for module in GONZAGA_DRAWING:
        wrong = sorted(reached(graph, at + module) & {at + m for m in GONZAGA_INPUT})
        assert not wrong, f"{module} draws the table, yet loads {wrong}"


#: A folder of modules with every kind of import, and two circles through a.js
SOURCES = {
    "a.js": 'import { b } from "./b.js";\nimport {\n  c,\n} from "./c.js";\nexport const a = 1;\n',
    "b.js": 'export { a } from "./a.js";\nexport const b = 2;\n',
    "c.js": 'import "/static/t/d.js";\nexport const c = 3;\n',
    "d.js": 'const x = "import";\nexport async function f() { return import("./a.js"); }\n',
    "e.js": 'import { a } from "./a.js";\n',
}


def test_circles_and_their_imports_are_found(tmp_path: Path):
    """Each kind of import counts, and each circle is named: two circles through one module."""
    for name, source in SOURCES.items():
        (tmp_path / name).write_text(source, encoding="utf-8")
    graph = module_graph({"t": tmp_path})
    at = "/static/t/"
    assert graph == {at + "a.js": {at + "b.js", at + "c.js"}, at + "b.js": {at + "a.js"},
                     at + "c.js": {at + "d.js"}, at + "d.js": {at + "a.js"},
                     at + "e.js": {at + "a.js"}}
    found = circles(graph)
    assert sorted(sorted(set(c)) for c in found) == [[at + "a.js", at + "b.js"],
                                                     [at + "a.js", at + "c.js", at + "d.js"]]
    for circle in found:
        assert circle[0] == circle[-1]
        assert all(there in graph[here] for here, there in itertools.pairwise(circle))


def test_an_import_of_no_script_fails(tmp_path: Path):
    (tmp_path / "a.js").write_text('import { b } from "./missing.js";\n')
    with pytest.raises(AssertionError, match=r"a\.js imports \./missing\.js: no such script"):
        module_graph({"t": tmp_path})
