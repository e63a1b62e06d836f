"""The wheel runs on its own: built from this tree, installed in a fresh virtual environment with
no checkout and no npm beside it, `chess-server` serves a page, its scripts and the vendored
front-end packages (setup.py copies them into the wheel as server/frontend/).

The wheel is built from a copy of the tree's files (node_modules linked, not copied), without
build isolation, so the test needs no network for the build; the fresh environment installs the
wheel's dependencies from the package index, like a user's `pip install`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.live_server import free_port, log_tail

# Building and installing take minutes on a busy machine: past the suite's 300 s default.
pytestmark = [pytest.mark.server, pytest.mark.timeout(1800)]

ROOT = Path(__file__).resolve().parent.parent
# Bounds for a busy machine: building and installing are minutes of work there.
INSTALL_TIMEOUT = 900
START_TIMEOUT = 120.0


def tree_copy(target: Path) -> Path:
    """The tree's files (tracked and new, not ignored) copied under `target`, node_modules
    linked: the wheel is built from what would be committed, not from stale build folders."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    for name in filter(None, listed):
        source, copy = ROOT / name.decode(), target / name.decode()
        if source.is_file():
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes(source.read_bytes())
    (target / "node_modules").symlink_to(ROOT / "node_modules")
    return target


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tree_copy(tmp_path_factory.mktemp("source"))
    out = tmp_path_factory.mktemp("wheel")
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
    subprocess.run(
        [*command, "--quiet", "--wheel-dir", str(out), str(source)],
        check=True,
        timeout=INSTALL_TIMEOUT,
    )
    (built,) = out.glob("*.whl")
    return built


@pytest.fixture(scope="module")
def installed_server(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`chess-server` of a fresh venv holding only the wheel and its dependencies; its URL."""
    home = tmp_path_factory.mktemp("installed")
    subprocess.run([sys.executable, "-m", "venv", str(home / "venv")], check=True)
    pip = [str(home / "venv" / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    subprocess.run([*pip, str(wheel)], check=True, timeout=INSTALL_TIMEOUT)
    port, log_path = free_port(), home / "server.log"
    # Run from an empty folder with a clean environment: nothing of the checkout is reachable.
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "CHESS_ENGINE_WORKERS": "1"}
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [str(home / "venv" / "bin" / "chess-server"), "--port", str(port)],
            cwd=home,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_answering(url, process, log_path)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


def wait_until_answering(url: str, process: subprocess.Popen[bytes], log_path: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"chess-server exited; its log ends:\n{log_tail(log_path)}")
        try:
            with urllib.request.urlopen(url + "/", timeout=5):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(
        f"chess-server did not answer GET / within {START_TIMEOUT}s; log:\n{log_tail(log_path)}"
    )


def fetch(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.headers["Content-Type"], response.read()


def test_the_wheel_carries_every_package_the_pages_and_the_vendored_files(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for package in ("server/analysis", "server/lobby", "server/review", "chesscore/review"):
        assert f"{package}/__init__.py" in names, package
    assert "chesscore/data/openings.tsv" in names
    assert "server/frontend/templates/game.html" in names
    assert "server/frontend/static/js/board.js" in names
    # The compiled catalogs (make translations, a step of make test and make dist).
    assert "server/frontend/translations/fr/LC_MESSAGES/messages.mo" in names
    assert "server/frontend/translations/sv/LC_MESSAGES/js.mo" in names
    vendored = "server/frontend/node_modules/@lichess-org/chessground/dist/chessground.js"
    assert vendored in names
    assert not any(name.startswith(("tests/", "bench/")) for name in names)


def test_the_installed_server_serves_a_page_a_script_and_a_vendored_file(
    installed_server: str,
) -> None:
    status, kind, page = fetch(installed_server + "/")
    assert (status, kind.split(";")[0]) == (200, "text/html")
    assert b'src="/static/js/lobby.js"' in page
    french = urllib.request.Request(installed_server + "/", headers={"Accept-Language": "fr"})
    with urllib.request.urlopen(french, timeout=30) as response:
        assert b'<html lang="fr" ' in response.read()
    status, kind, script = fetch(installed_server + "/static/js/board.js")
    assert status == 200 and "javascript" in kind
    assert b"chessground" in script
    status, kind, vendored = fetch(installed_server + "/vendor/chessground/chessground.js")
    assert status == 200 and "javascript" in kind
    assert b"export" in vendored
