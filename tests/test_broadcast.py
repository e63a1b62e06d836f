"""The python-socketio internals server.edge.broadcast overrides and calls, checked.

`QueueManager.emit_each` builds the message python-socketio's `PubSubManager.emit` would build
and hands it to the private `_handle_emit` (delivered here) and `_publish` (sent to Redis), and
`QueueManager._handle_emit` is also what the listening thread calls for a message from another
process. None of that is public API: these fail when a python-socketio upgrade renames, re-signs
or reshapes them, so the module is reviewed before a cluster silently stops delivering states.
(The cluster tests carry states through a real Redis, but run only where Redis is installed.)
"""

from __future__ import annotations

import inspect

import socketio

from server.edge.broadcast import QueueManager


def parameters(function: object) -> list[str]:
    return list(inspect.signature(function).parameters)  # type: ignore[arg-type]


def test_the_private_methods_broadcast_overrides_keep_their_signatures() -> None:
    assert parameters(socketio.PubSubManager._handle_emit) == ["self", "message"]
    assert parameters(socketio.RedisManager._publish) == ["self", "data"]
    # Ours override or call exactly these, not some other base's.
    assert QueueManager.__mro__[1] is socketio.RedisManager
    assert parameters(QueueManager._handle_emit) == ["self", "message"]


def test_an_emit_message_still_has_the_fields_emit_each_writes() -> None:
    """emit_each writes the message PubSubManager.emit writes (plus `rooms`), by hand."""
    emit = inspect.getsource(socketio.PubSubManager.emit)
    for field in ("'method': 'emit'", "'event': event", "'data': data", "'binary': binary"):
        assert field in emit
    for field in ("'namespace': namespace", "'room': room", "'skip_sid': skip_sid"):
        assert field in emit
    assert "'callback': callback" in emit and "'host_id': self.host_id" in emit
    assert "self._handle_emit(message)" in emit and "self._publish(message)" in emit


def test_a_message_from_another_process_still_goes_through_handle_emit() -> None:
    """The listening thread hands an emit from another host to `_handle_emit`, which reads
    the fields our override splits `rooms` into (`room`, and `data` as a list)."""
    listen = inspect.getsource(socketio.PubSubManager._thread)
    assert "elif data.get('host_id') != self.host_id:" in listen
    assert "self._handle_emit(data)" in listen
    handle = inspect.getsource(socketio.PubSubManager._handle_emit)
    assert "data = message['data']" in handle
    assert "room=message.get('room')" in handle
