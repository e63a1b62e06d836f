"""The review's page (templates/review.html; the page reads the review by its id)."""

from __future__ import annotations

from flask import Blueprint, abort, render_template
from flask.typing import ResponseReturnValue

from server.review.service import REVIEWS
from server.shared.errors import RequestError

blueprint = Blueprint("review_pages", __name__)


@blueprint.get("/review/<review_id>")
def review_page(review_id: str) -> ResponseReturnValue:
    """A game's review (templates/review.html; the page reads the review by its id)."""
    try:
        REVIEWS.get().load(review_id)
    except RequestError as error:
        abort(error.http_status)
    return render_template(["review.html", "index.html"], review_id=review_id)
