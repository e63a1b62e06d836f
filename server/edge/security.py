"""Security settings: the secret key, allowed origins and size limits.

The secret key comes from CHESS_SECRET_KEY, else from `<instance>/secret_key`, created once
with 32 random bytes and owner-only permissions, so sessions survive restarts without anyone
committing a key. Socket.IO accepts only the server's own origin unless CHESS_ALLOWED_ORIGINS
lists others; "*" is refused. Incoming Socket.IO messages and HTTP bodies are limited to a few
kilobytes: no valid request is bigger, and a bigger one only costs memory. Socket.IO's limit is
16 KB, since an analysis board's request names its node by the path from the root (up to 1,000
moves); HTTP's is 4 KB (server.shared.config), save the analysis import, which takes a PGN file
(server.analysis.http).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

MAX_PAYLOAD_BYTES = 16384
# A WebSocket message's bytes on the wire: the payload's characters, each up to 4 in UTF-8, and
# room for the frame headers. Refused by the frame header, before the payload is read
# (server.edge.http_server in gevent mode, simple-websocket's option in threading mode).
MAX_FRAME_BYTES = 4 * MAX_PAYLOAD_BYTES + 1024


def load_secret_key(instance_path: str) -> str:
    """The configured secret key, or the instance's own, made on first use."""
    configured = os.environ.get("CHESS_SECRET_KEY")
    if configured:
        return configured
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            handle.write(secrets.token_hex(32))
    return path.read_text().strip()


def allowed_origins(setting: str | None) -> list[str] | None:
    """Origins from a comma-separated setting; None means the server's own origin only."""
    if not setting:
        return None
    origins = [origin.strip() for origin in setting.split(",") if origin.strip()]
    if "*" in origins:
        raise ValueError("CHESS_ALLOWED_ORIGINS may not be '*': list the allowed origins")
    return origins


def socketio_options(config: dict[str, Any]) -> dict[str, Any]:
    """Options for `socketio.init_app` that make the transport safe by default."""
    return {
        "cors_allowed_origins": allowed_origins(config.get("ALLOWED_ORIGINS")),
        "max_http_buffer_size": MAX_PAYLOAD_BYTES,
    }
