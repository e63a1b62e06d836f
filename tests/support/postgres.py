"""A PostgreSQL of a test module's own, for the store tests marked `cluster`: started through
deploy/cluster.py, skipped without PostgreSQL, failing without it on CI."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

NEEDED = ("initdb", "pg_ctl", "Python package psycopg", "runuser")


def module_postgres() -> Callable[[], Iterator[str]]:
    """A module-scoped fixture yielding the URL of an empty PostgreSQL database; assign it to
    `database` (as tests/support/server_fixture.py's servers are assigned)."""
    return pytest.fixture(scope="module")(_database)


def _database() -> Iterator[str]:
    from deploy import cluster

    if any(name.startswith(NEEDED) for name in cluster.missing_programs()):
        message = "needs PostgreSQL (apt-get install postgresql; pip install 'psycopg[binary]')"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    # Not under pytest's tmp_path: as root, PostgreSQL runs as `postgres`, who must reach it.
    folder = Path(tempfile.mkdtemp(prefix="chess-store-"))
    folder.chmod(0o755)
    try:
        yield cluster.start_postgres(folder, cluster.free_port())
    finally:
        cluster.stop_postgres(folder)
        shutil.rmtree(folder, ignore_errors=True)
