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


@pytest.mark.parametrize("domain", ["server.games", "server.storage", "server.engine"])
def test_the_server_domains_import_no_transport(domain: str) -> None:
    graph = import_graph(ROOT / "server")
    assert any(name.startswith(domain + ".") for name in graph)  # the domain was read
    assert offenders(graph, domain, ("server.transport",)) == []


def test_the_engines_know_no_domain_above_them() -> None:
    """The engine pool serves games, analysis and review alike: it imports none of them."""
    graph = import_graph(ROOT / "server")
    above = ("server.games", "server.review", "server.analysis", "server.lobby", "server.transport")
    assert offenders(graph, "server.engine", above) == []


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
