"""The app factory: configuration, the page and the vendored front-end packages."""

from __future__ import annotations

from pathlib import Path

import pytest

from server import create_app
from tests.support.in_process import IN_PROCESS


def test_factory_applies_config(tmp_path: Path) -> None:
    app = create_app(IN_PROCESS | {"TESTING": True, "INSTANCE_PATH": str(tmp_path)})
    assert app.testing
    assert app.instance_path == str(tmp_path)
    assert app.config["ASYNC_MODE"] == "threading"


def test_gevent_mode_is_the_default_and_needs_a_patched_process(tmp_path: Path) -> None:
    # The test process is not patched for gevent: the factory says how to start it instead.
    with pytest.raises(RuntimeError, match="python -m server"):
        create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path)})


def test_index_page_loads_the_board(tmp_path: Path) -> None:
    client = create_app(
        IN_PROCESS | {"TESTING": True, "INSTANCE_PATH": str(tmp_path)}
    ).test_client()
    page = client.get("/")
    assert page.status_code == 200
    assert b'id="board"' in page.data
    assert b"js/lobby.js" in page.data


def test_front_end_packages_come_from_node_modules(tmp_path: Path) -> None:
    client = create_app(
        IN_PROCESS | {"TESTING": True, "INSTANCE_PATH": str(tmp_path)}
    ).test_client()
    ground = client.get("/vendor/chessground/chessground.js")
    assert ground.status_code == 200
    assert b"export function Chessground" in ground.data
    assert client.get("/vendor/socket.io/socket.io.esm.min.js").status_code == 200
    assert client.get("/vendor/chessground-assets/chessground.cburnett.css").status_code == 200


def test_vendor_serves_only_known_packages(tmp_path: Path) -> None:
    client = create_app(
        IN_PROCESS | {"TESTING": True, "INSTANCE_PATH": str(tmp_path)}
    ).test_client()
    assert client.get("/vendor/flask/__init__.py").status_code == 404
    assert client.get("/vendor/chessground/../../../package.json").status_code == 404
