"""The front end's own checks, held by the suite as `make lint` holds them: every module under
static/js is type-checked (`// @ts-check`, and TypeScript's `tsc --noEmit` over tsconfig.json
passes) and linted (ESLint over eslint.config.mjs passes); and one module, static/js/client.js,
talks to the server: the only `io(` call (the Socket.IO connection), the only `fetch(` call
(HTTP) and the only `refusalText` (the words of a refusal) are there.

tsc and eslint run from node_modules (`npm ci`, which `make test` runs first), on the files
as they are, so the test proves the checked-in code, not a cached verdict.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STATIC_JS = ROOT / "static" / "js"
BIN = ROOT / "node_modules" / ".bin"
CLIENT = "client.js"
# Generous: tsc over the whole front end takes a few seconds on an idle machine.
TOOL_TIMEOUT_S = 300

# A call, not a method of another object (`history.fetch(ply)`) nor a method's definition
# (`async fetch(ply) {`).
IO_CALL = re.compile(r"(?<![\w.$])io\s*\(")
FETCH_CALL = re.compile(r"(?<![\w.$])(?<!async )fetch\s*\(")
REFUSAL_TEXT = re.compile(r"\bfunction\s+refusalText\b")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)


def modules() -> list[Path]:
    return sorted(STATIC_JS.rglob("*.js"))


def code_of(path: Path) -> str:
    """The module's text without its comments (which may name `fetch(` in words)."""
    return COMMENT.sub("", path.read_text())


def modules_matching(pattern: re.Pattern[str]) -> list[str]:
    return [str(path.relative_to(STATIC_JS)) for path in modules() if pattern.search(code_of(path))]


def run_tool(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    tool = BIN / name
    if not tool.exists():
        pytest.fail(f"{tool} is missing: run `make node_modules/.package-lock.json` first")
    return subprocess.run(
        [str(tool), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=TOOL_TIMEOUT_S,
        check=False,
    )


def test_static_js_has_modules() -> None:
    assert len(modules()) > 50, "static/js was not found where the test looks for it"


def test_every_module_is_type_checked() -> None:
    unchecked = [
        str(path.relative_to(STATIC_JS))
        for path in modules()
        if not path.read_text().startswith("// @ts-check\n")
    ]
    assert unchecked == [], f"modules without `// @ts-check` on their first line: {unchecked}"


def test_one_module_opens_the_socket() -> None:
    assert modules_matching(IO_CALL) == [CLIENT]


def test_one_module_fetches() -> None:
    assert modules_matching(FETCH_CALL) == [CLIENT]


def test_one_function_words_refusals() -> None:
    assert modules_matching(REFUSAL_TEXT) == [CLIENT]


def test_typescript_finds_no_error() -> None:
    result = run_tool("tsc", "--noEmit", "-p", ".")
    assert result.returncode == 0, f"tsc --noEmit found errors:\n{result.stdout}{result.stderr}"


def test_eslint_finds_no_problem() -> None:
    result = run_tool("eslint", "--max-warnings", "0", "static/js")
    assert result.returncode == 0, f"eslint found problems:\n{result.stdout}{result.stderr}"
