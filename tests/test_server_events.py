"""The Socket.IO error handler: an unexpected exception answers `internal` and is logged.

No input of a real client can raise inside a handler (that is the point of the parser), so the
test adds one handler that fails on purpose, next to the real ones, on an app of its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from server import create_app, socketio
from tests.support.in_process import IN_PROCESS


def test_an_unexpected_exception_answers_internal_and_keeps_the_connection(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(IN_PROCESS | {"INSTANCE_PATH": str(tmp_path), "TESTING": True})

    @socketio.on("test_explode")
    def explode(payload: object) -> None:
        raise RuntimeError("boom")

    client = socketio.test_client(app)
    try:
        reply = client.emit("test_explode", {}, callback=True)
        assert reply == {
            "ok": False,
            "error": "internal error: the request was not applied",
            "code": "internal",
        }
        assert "boom" in caplog.text
        again = client.emit("join", {"game": "AAAAAAAAAAAA"}, callback=True)
        assert again["code"] == "not_found"
        assert client.is_connected()
    finally:
        client.disconnect()
        # Leave the shared `socketio` as the other tests expect it.
        socketio.server.handlers["/"].pop("test_explode", None)
        socketio.handlers[:] = [entry for entry in socketio.handlers if entry[0] != "test_explode"]
