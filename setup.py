"""Build step that puts the front end into the wheel, so an installed `chess-server` serves it.

In a checkout the server reads `templates/`, `static/` and the npm packages in `node_modules/`
beside the `server` package (server/shared/config.py). A wheel has no checkout around it, so
building one copies them into the package as `server/frontend/`: the pages and the browser code,
the translations' catalogs compiled (with Babel, a build requirement), and
of `node_modules` only the folders the server serves under `/vendor/` (VENDOR_FOLDERS in
server/edge/vendor.py, narrowed to VENDOR_FILES where that table names files: Stockfish's lite
builds, not its 99 MB nets). The tables are read from that module's source, not imported: building
needs no Flask. Without `npm ci` first the wheel serves pages whose `/vendor/` files are missing,
and the build says so. Editable installs copy nothing: they run from the checkout.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
VIEWS = HERE / "server" / "edge" / "vendor.py"
FRONTEND = Path("server") / "frontend"


def vendor_tables() -> dict[str, object]:
    """VENDOR_FOLDERS and VENDOR_FILES (if present) as server/edge/vendor.py writes them."""
    tables: dict[str, object] = {}
    for node in ast.parse(VIEWS.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name in ("VENDOR_FOLDERS", "VENDOR_FILES"):
                code = compile(ast.Expression(node.value), str(VIEWS), "eval")
                tables[name] = eval(code, {"__builtins__": {}, "frozenset": frozenset})
    return tables


def copy_vendor(node_modules: Path, target: Path) -> list[str]:
    """Copy the served folders of `node_modules` under `target`; the folders missing."""
    tables = vendor_tables()
    folders: dict[str, str] = tables["VENDOR_FOLDERS"]  # type: ignore[assignment]
    only: dict[str, frozenset[str]] = tables.get("VENDOR_FILES", {})  # type: ignore[assignment]
    missing = []
    for package, folder in folders.items():
        source = node_modules / folder
        if not source.is_dir():
            missing.append(folder)
            continue
        if package in only:
            (target / folder).mkdir(parents=True, exist_ok=True)
            for name in only[package]:
                shutil.copyfile(source / name, target / folder / name)
        else:
            shutil.copytree(source, target / folder, dirs_exist_ok=True)
    return missing


def compile_catalogs(source: Path, target: Path) -> None:
    """Each language's gettext catalogs (translations/<lang>/LC_MESSAGES/*.po) compiled into
    `target` as the server reads them (.mo); git keeps only the .po files (docs/i18n.md)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in source.glob("*/LC_MESSAGES/*.po"):
        mo = target / po.relative_to(source).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as text, mo.open("wb") as compiled:
            write_mo(compiled, read_po(text))


class BuildWithFrontend(build_py):
    """setuptools' build_py, then the front end copied into the built package."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib) / FRONTEND
        for folder in ("templates", "static"):
            shutil.copytree(HERE / folder, target / folder, dirs_exist_ok=True)
        compile_catalogs(HERE / "translations", target / "translations")
        missing = copy_vendor(HERE / "node_modules", target / "node_modules")
        if missing:
            self.warn(f"no node_modules/{', '.join(missing)}: run `npm ci` before building")


setup(cmdclass={"build_py": BuildWithFrontend})
