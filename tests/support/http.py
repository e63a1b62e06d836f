"""Assertions on the HTTP API's answers, shared by the endpoint tests."""

from __future__ import annotations

import requests


def refused(response: requests.Response, status: int, code: str, words: str = "") -> str:
    """Assert `response` is the refusal `code` with HTTP `status`; its message."""
    body = response.json()
    assert response.status_code == status, (response.status_code, body)
    assert body["ok"] is False and body["code"] == code, body
    assert words in body["error"], body
    return str(body["error"])
