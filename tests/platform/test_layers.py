"""Tavola's modules import each other in one direction: no import circles, not even ones hidden
in functions, and each game's rules core imports none of the layers above it.

The graph is read from the source with `ast`, so nothing is imported to check it: every
`import` counts wherever it stands (at the top or inside a function) except under
`if TYPE_CHECKING:`, which never runs. Importing `a.b.c` runs `a.b`'s `__init__` first, so it
counts as importing `a.b` too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "tavola"

#: Each game's rules core: the rules as data and functions, in no language.
CORE = {
    "tavola.games.gonzaga": ("actions", "board", "engine", "placement", "state"),
    "tavola.games.signorie": ("actions", "engine", "state", "tables"),
}
#: What the rules core never imports: the words, the platform's view of the game, the bots
#: and the clients (web and terminal). Those import the core.
ABOVE_CORE = ("text", "game", "bots", "web", "terminal")

Graph = dict[str, dict[str, int]]  # module -> {imported module: line}


def module_name(path: Path, package: Path) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def runtime_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement that can run: anywhere but under `if TYPE_CHECKING:`."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for branch in node.orelse:
                yield from runtime_imports(ast.Module(body=[branch], type_ignores=[]))
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        yield from runtime_imports(node)


def imported_names(module: str, is_package: bool, node: ast.Import | ast.ImportFrom
                   ) -> list[str]:
    """The dotted names a statement imports: `from .x import y` names `pkg.x.y` (a module or
    a name in `pkg.x`)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = module.split(".")[: len(module.split(".")) - node.level + is_package]
        base += [node.module] if node.module else []
        where = ".".join(base)
    else:
        where = node.module or ""
    return [f"{where}.{alias.name}" for alias in node.names]


def import_graph(package: Path = PACKAGE) -> Graph:
    """Tavola's modules and the tavola modules each one imports (with its parent packages)."""
    paths = {module_name(p, package): p for p in sorted(package.rglob("*.py"))}
    graph: Graph = {}
    for module, path in paths.items():
        edges = graph.setdefault(module, {})
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in runtime_imports(tree):
            for name in imported_names(module, path.name == "__init__.py", node):
                while name and name not in paths:  # `pkg.x.y` where y is a name in pkg.x
                    name = name.rpartition(".")[0]
                while name:  # the module and the packages it runs first
                    if name != module and not module.startswith(name + "."):
                        edges.setdefault(name, node.lineno)
                    name = name.rpartition(".")[0]
    return graph


def circles(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while not component or component[-1] != v:
                component.append(stack.pop())
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_the_graph_sees_imports_in_functions_and_parent_packages(tmp_path: Path):
    """The checker itself: an import inside a function closes a circle; a TYPE_CHECKING one
    does not; importing a submodule imports its package."""
    pkg = tmp_path / "tavola"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("def f():\n    from .a import x\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\n"
                              "if TYPE_CHECKING:\n    from .sub.d import y\n")
    (pkg / "sub" / "__init__.py").write_text("from ..c import z\n")
    (pkg / "sub" / "d.py").write_text("from tavola.c import z\n")
    (pkg / "e.py").write_text("from .sub import d\n")
    graph = import_graph(pkg)
    assert graph["tavola.e"].keys() == {"tavola.sub.d", "tavola.sub"}  # not its own package
    assert "tavola.sub.d" not in graph["tavola.c"]
    assert circles(graph) == [["tavola.a", "tavola.b"]]


def test_tavola_has_no_import_circle():
    found = circles(import_graph())
    assert not found, "\n".join(f"{len(c)} modules: {', '.join(c)}" for c in found)


def reached(graph: Graph, start: str) -> dict[str, str]:
    """Every module `start` imports, directly or through others: module -> the one importing
    it on the way."""
    via: dict[str, str] = {}
    todo = [start]
    while todo:
        module = todo.pop()
        for target in graph.get(module, {}):
            if target not in via and target != start:
                via[target] = module
                todo.append(target)
    return via


@pytest.mark.parametrize("game", sorted(CORE))
def test_the_rules_core_imports_no_layer_above_it(game: str):
    """Not directly, nor through another module (a helper that imports the text layer)."""
    graph = import_graph()
    above = tuple(f"{game}.{layer}" for layer in ABOVE_CORE)
    wrong = [f"{game}.{core} reaches {target} (imported by {by})"
             for core in CORE[game] for target, by in reached(graph, f"{game}.{core}").items()
             if any(target == a or target.startswith(a + ".") for a in above)]
    assert not wrong, "\n".join(sorted(wrong))


#: The parts `GameServer` is split into, below it: each is given what it needs (the store,
#: the games in memory, the limits, a few callables) and never the server itself, so none can
#: call back into it.
SERVER_PARTS = ("background", "botmoves", "chat", "leaving", "lobby", "rooms", "storecalls")


def private_reaches(tree: ast.AST) -> list[tuple[int, str]]:
    """Where code reads a private name of a server (`server._x`, `self.server._x`)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") \
                and not node.attr.startswith("__"):
            owner = node.value
            name = owner.id if isinstance(owner, ast.Name) else \
                owner.attr if isinstance(owner, ast.Attribute) else ""
            if name == "server":
                found.append((node.lineno, ast.unparse(node)))
    return found


def names_the_server(tree: ast.AST) -> list[tuple[int, str]]:
    """Where code names a server: a variable, parameter or attribute `server`, `GameServer`."""
    found = []
    for node in ast.walk(tree):
        name = node.id if isinstance(node, ast.Name) else node.attr \
            if isinstance(node, ast.Attribute) else node.arg if isinstance(node, ast.arg) \
            else None
        if name in ("server", "GameServer"):
            found.append((getattr(node, "lineno", 0), name))
    return found


def test_the_checks_of_the_servers_parts_see_what_they_look_for():
    tree = ast.parse("def f(server, room):\n    server._forget(room)\n"
                     "    self.server._lobby_cache.clear()\n    server.lobby.changed()\n"
                     "    x.__class__\n")
    assert private_reaches(tree) == [(2, "server._forget"), (3, "self.server._lobby_cache")]
    assert [n for _, n in names_the_server(tree)] == ["server", "server", "server", "server"]
    assert names_the_server(ast.parse("def f(store, table):\n    store.load(table)\n")) == []


def test_no_module_reaches_into_the_servers_private_parts():
    """Only the server's own module touches its private names; everyone else calls what it
    offers."""
    wrong = [f"{path.relative_to(PACKAGE.parent)}:{line}: {text}"
             for path in sorted(PACKAGE.rglob("*.py")) if path != PACKAGE / "web" / "app.py"
             for line, text in private_reaches(ast.parse(path.read_text(encoding="utf-8")))]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("part", SERVER_PARTS)
def test_the_servers_parts_are_not_given_the_server(part: str):
    path = PACKAGE / "web" / f"{part}.py"
    found = names_the_server(ast.parse(path.read_text(encoding="utf-8")))
    assert not found, f"tavola.web.{part} names the server at lines {[n for n, _ in found]}"
