"""The JSON API's common ground over HTTP: bodies read with bounds, errors answered as JSON.

Every feature's API blueprint answers the same way: a body is JSON only if it says so, decoded
with a nesting limit (server.edge.json_limits), and every failure, including a malformed body,
an unknown route under /api and an unexpected exception, is `{"ok": false, "error", "code"}`
with the status from `server.shared.errors` (`answer_errors_as_json`). A bearer token is read
from `Authorization: Bearer <token>`, never a cookie, so another site cannot act for a player.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Blueprint, Flask, Response, jsonify, make_response, request
from werkzeug.exceptions import HTTPException

from server.edge.json_limits import MAX_DEPTH, InvalidTextError, JsonTooDeepError, loads_bounded
from server.shared.buckets import RateLimited
from server.shared.errors import N_, RequestError

log = logging.getLogger(__name__)


def json_body() -> Any:
    return decode_json(json_bytes())


def json_bytes() -> bytes:
    """The body, undecoded, of a request that says it is JSON."""
    if not request.is_json:
        raise RequestError(
            "bad_request", N_("the body must be JSON (Content-Type: application/json)")
        )
    return request.get_data()


def decode_json(data: bytes) -> Any:
    """A body's JSON (None when empty), `bad_request` naming what is wrong; the work pool's
    jobs (server.work.jobs) decode the large bodies with it, off the serving loop."""
    if not data:
        return None
    # Decoded here, not by request.get_json: a deeply nested body made json recurse into a
    # RecursionError, which is no ValueError and became a 500 (json_limits).
    try:
        return loads_bounded(data)
    except JsonTooDeepError as error:
        where = "the body" if error.field is None else f"field {error.field[:30]!r}"
        raise RequestError(
            "bad_request",
            N_("{where} nests deeper than {MAX_DEPTH} levels ({depth})"),
            where=where,
            MAX_DEPTH=MAX_DEPTH,
            depth=error.depth,
        ) from error
    except InvalidTextError as error:
        raise RequestError("bad_request", N_("the body: {error}"), error=error) from error
    except ValueError as error:
        raise RequestError("bad_request", N_("the body is not valid JSON")) from error


def bearer_token() -> str | None:
    """The token of the request's `Authorization: Bearer <token>` header, if it has one."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token if scheme.lower() == "bearer" and token else None


def refused(error: RequestError) -> Response:
    response = make_response(jsonify(error.to_json()), error.http_status)
    if isinstance(error, RateLimited):
        response.headers["Retry-After"] = str(error.retry_after)
    return response


def http_error(error: HTTPException) -> tuple[Response, int]:
    code = {404: "not_found", 413: "payload_too_large"}.get(error.code or 400, "bad_request")
    return jsonify({"ok": False, "error": error.description, "code": code}), error.code or 400


def unrouted(error: HTTPException) -> tuple[Response, int] | HTTPException:
    """Routing errors happen before any blueprint is chosen: answer JSON under /api only."""
    if request.path.startswith("/api/"):
        return http_error(error)
    return error


def crashed(error: Exception) -> tuple[Response, int]:
    log.error("unexpected error in the HTTP API", exc_info=error)
    body = {"ok": False, "error": "internal error: the request was not applied", "code": "internal"}
    return jsonify(body), 500


def answer_errors_as_json(other: Blueprint) -> Blueprint:
    """`other`, an API blueprint, answering its errors as JSON: a refusal with its status (and
    Retry-After when rate limited), an HTTP error by its code, a crash as `internal`."""
    other.register_error_handler(RequestError, refused)
    other.register_error_handler(HTTPException, http_error)
    other.register_error_handler(Exception, crashed)
    return other


def answer_unrouted_as_json(app: Flask) -> None:
    """Routing errors happen before any blueprint is chosen: JSON under /api, pages elsewhere."""
    app.register_error_handler(404, unrouted)
    app.register_error_handler(405, unrouted)
