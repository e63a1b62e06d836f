"""chesscore's layers, read from its source with `ast`: every import of every module, at any
depth (inside functions and `if TYPE_CHECKING:` blocks too), makes an edge of the import graph.

The rules: chesscore imports nothing of the server or of the web and test stack; the rules
(chesscore.rules) import neither the analysis nor the engine; the analysis does not import the
engine; and the imports inside the rules form no circle (the one found is named). The server's
domains point down too: `server.games` and `server.storage` import nothing of the transport
(the transport calls down into them, and the games reach the rooms through their notifier).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "chesscore"
FORBIDDEN_TOP_LEVEL = {"server", "flask", "flask_socketio", "socketio", "engineio", "chess"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_names(path: Path) -> set[str]:
    """Every module `path` imports, as dotted names; `from a import b` counts as `a` and, in
    case b is a module, `a.b` (non-modules are dropped by `import_graph`)."""
    tree = ast.parse(path.read_text(), str(path))
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package.pop()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[: len(package) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Module of `package` (chesscore by default) -> every name it imports (outside modules
    included)."""
    return {module_name(path): imported_names(path) for path in sorted(package.rglob("*.py"))}


def internal_edges(graph: dict[str, set[str]], prefix: str) -> dict[str, set[str]]:
    """The graph between the modules under `prefix`, packages' `__init__` left out (importing
    a submodule runs its package's `__init__`, which is not an import of it)."""
    inside = {name for name in graph if name.startswith(prefix + ".")}
    return {name: graph[name] & inside for name in inside}


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One circle of the graph as a list of names (first == last), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        path.append(name)
        for target in sorted(edges.get(name, ())):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[name] = 2
        return None

    for name in sorted(edges):
        if name not in state:
            found = visit(name)
            if found:
                return found
    return None


def offenders(graph: dict[str, set[str]], layer: str, banned: tuple[str, ...]) -> list[str]:
    return sorted(
        f"{name} imports {target}"
        for name, targets in graph.items()
        if name == layer or name.startswith(layer + ".")
        for target in targets
        if any(target == ban or target.startswith(ban + ".") for ban in banned)
    )


def test_the_graph_sees_imports_at_any_depth() -> None:
    graph = import_graph()
    # board.py imports san at the top; search.py imports the board; a function-level import
    # of players.py (make_level_player) is found too.
    assert "chesscore.rules.san" in graph["chesscore.rules.board"]
    assert "chesscore.engine.levels" in graph["chesscore.engine.players"]
    assert len(graph) >= 30


def test_chesscore_imports_no_server_web_or_oracle() -> None:
    found = sorted(
        f"{name} imports {target}"
        for name, targets in import_graph().items()
        for target in targets
        if target.split(".")[0] in FORBIDDEN_TOP_LEVEL
    )
    assert found == []


@pytest.mark.parametrize(
    ("layer", "banned"),
    [
        ("chesscore.rules", ("chesscore.analysis", "chesscore.engine")),
        ("chesscore.analysis", ("chesscore.engine",)),
        ("chesscore.openings", ("chesscore.analysis", "chesscore.engine")),
    ],
)
def test_a_layer_imports_nothing_above_it(layer: str, banned: tuple[str, ...]) -> None:
    assert offenders(import_graph(), layer, banned) == []


def test_no_import_circle_inside_the_rules() -> None:
    cycle = find_cycle(internal_edges(import_graph(), "chesscore.rules"))
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


# -- the server's house ---------------------------------------------------------------------
# Its folders on floors, the ground first (docs/architecture.md, "The house"). A folder may
# import its own floor's folders only where SERVER_FEATURES orders them, and any lower floor.
SERVER_FLOORS: tuple[tuple[str, ...], ...] = (
    ("server.shared",),  # errors, settings, names, buckets, tokens, slots
    # the network's edge; the database; the visitor's language (server.i18n)
    ("server.edge", "server.storage", "server.i18n"),
    ("server.engine", "server.work", "server.threats", "server.ratings"),  # chess machinery
    # The features, each whole (service, tables, routes, events, parsing, wire format), in
    # the order they may import each other (a later one may import an earlier one).
    (
        "server.accounts",
        "server.preferences",
        "server.games",
        "server.chat",
        "server.lobby",
        "server.analysis",
        "server.review",
        "server.players",
        "server.training",
        "server.puzzles",
    ),
    # The root: every domain's tables opened, every service built, every route registered.
    ("server.tables", "server.services", "server.sockets", "server.app", "server.__main__"),
)
SERVER_FEATURES = SERVER_FLOORS[3]
# Floors whose folders may not import each other at all (the ground and the machinery).
INDEPENDENT_FLOORS = (SERVER_FLOORS[0], SERVER_FLOORS[1], SERVER_FLOORS[2])


def server_folder(module: str) -> str | None:
    """The folder (or top module) of the house `module` lives in; None outside the server."""
    parts = module.split(".")
    if parts[0] != "server" or len(parts) < 2:
        return None
    return ".".join(parts[:2])


def floor_of(folder: str) -> int:
    for floor, folders in enumerate(SERVER_FLOORS):
        if folder in folders:
            return floor
    raise AssertionError(f"{folder} is on no floor of SERVER_FLOORS: give it one")


def may_import(importer: str, imported: str) -> bool:
    if importer == imported:
        return True
    low, high = floor_of(imported), floor_of(importer)
    if low != high:
        return low < high
    if importer in SERVER_FEATURES:
        return SERVER_FEATURES.index(imported) < SERVER_FEATURES.index(importer)
    return SERVER_FLOORS[low] not in INDEPENDENT_FLOORS and floor_of(importer) == 4


def server_arrows() -> set[tuple[str, str, str]]:
    """(importer folder, imported folder, importing module) for every import between the
    server's folders."""
    graph = import_graph(ROOT / "server")
    arrows = set()
    for name, targets in graph.items():
        source = server_folder(name)
        for target in targets:
            folder = server_folder(target)
            if (
                source
                and folder
                and folder in {server_folder(n) for n in graph}
                and folder != source
            ):
                arrows.add((source, folder, name))
    return arrows


def test_every_server_folder_stands_on_a_floor() -> None:
    folders = {server_folder(name) for name in import_graph(ROOT / "server")} - {None}
    for folder in folders:
        floor_of(str(folder))
    assert {"server.edge", "server.storage", "server.games", "server.services"} <= folders


def test_no_arrow_runs_back_up_the_house() -> None:
    """Each folder imports only what stands below it (or, among the features, before it)."""
    upward = sorted(
        f"{module} ({source}) imports {target}"
        for source, target, module in server_arrows()
        if not may_import(source, target)
    )
    assert upward == []


def test_no_circle_in_the_server() -> None:
    graph = import_graph(ROOT / "server")
    modules = internal_edges(graph, "server")
    cycle = find_cycle(modules)
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])
    folders: dict[str, set[str]] = {}
    for source, target, _ in server_arrows():
        folders.setdefault(source, set()).add(target)
    cycle = find_cycle(folders)
    assert cycle is None, "circle between folders: " + " -> ".join(cycle or [])


def test_the_floor_rules_refuse_an_upward_arrow() -> None:
    """The rules themselves: a made-up arrow of each kind is judged as the house says."""
    assert may_import("server.games", "server.edge")
    assert may_import("server.review", "server.games")
    assert not may_import("server.games", "server.review")
    assert not may_import("server.edge", "server.games")
    assert not may_import("server.storage", "server.accounts")
    assert not may_import("server.edge", "server.storage")
    assert not may_import("server.shared", "server.edge")
    assert may_import("server.app", "server.services")


def test_the_engines_know_no_domain_above_them() -> None:
    """The engine pool serves games, analysis and review alike: it imports none of them."""
    graph = import_graph(ROOT / "server")
    assert offenders(graph, "server.engine", SERVER_FEATURES) == []


def test_storage_imports_no_domain_and_has_no_circle() -> None:
    """Storage is the floor under every domain: the database and the migrations' runner import
    nothing else of the server (each domain writes its own tables over them), and its modules
    form no circle."""
    graph = import_graph(ROOT / "server")
    assert any(name.startswith("server.storage.") for name in graph)  # storage was read
    above = tuple(
        sorted({".".join(name.split(".")[:2]) for name in graph} - {"server", "server.storage"})
    )
    assert "server.games" in above and "server.accounts" in above
    assert offenders(graph, "server.storage", above) == []
    cycle = find_cycle(internal_edges(graph, "server.storage"))
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])
