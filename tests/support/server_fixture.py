"""The module-scoped `server` fixture the server and browser test modules share: one real
server process on 127.0.0.1 per test module, with its own instance folder, stopped after it."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.support.live_server import LiveServer


def module_server(
    name: str, env: dict[str, str] | None = None
) -> Callable[[pytest.TempPathFactory], Iterator[LiveServer]]:
    """A fixture starting a server for a whole test module, its instance in a fresh folder
    named after `name`, with `env` added to its environment; assign it to `server`."""

    @pytest.fixture(scope="module")
    def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
        live = LiveServer(tmp_path_factory.mktemp(name) / "instance", env=dict(env or {}))
        live.start()
        yield live
        live.stop()

    return server
