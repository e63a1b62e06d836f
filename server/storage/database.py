"""The database every domain's tables are written against, whatever the SQL dialect below it.

A `Database` hands out connections for one unit of work: `connection()` for reads and for a
write of one statement (atomic by itself), `transaction(lock)` for several statements that
stand or fall together. The two dialects keep the same guarantees their own way: SQLite
(`server.storage.sqlite`) shares one connection under a thread lock and opens each
transaction with `BEGIN IMMEDIATE`, so writers never interleave; PostgreSQL
(`server.storage.postgres`) lends pooled connections and serialises a kind of work across
processes with an advisory lock, the `lock` key a domain names (0: none needed).

SQL is written once with `?` for parameters and turned into the driver's style by `sql`; the
few spellings that differ are asked of the database (`flag`, `serial_key`, `dialect`), so a
domain's table module holds one text per query for both dialects.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from contextlib import AbstractContextManager
from typing import Any, ClassVar, Protocol


class Connection(Protocol):
    """What both drivers' connections offer (sqlite3 and psycopg): `execute` returns a cursor
    with `fetchone`, `fetchall` and `rowcount`."""

    def execute(self, query: Any, params: Any = ...) -> Any: ...


class Database(ABC):
    """An open database of one dialect (`dialect`: "sqlite" or "postgres")."""

    dialect: ClassVar[str]
    placeholder: ClassVar[str]  # the driver's query parameter: "?" (sqlite3), "%s" (psycopg)
    serial_key: ClassVar[str]  # an auto-numbered integer primary key
    # The errors the driver raises when a row breaks a unique key (a ply stored twice, a name
    # taken meanwhile by another process).
    unique_violation: ClassVar[tuple[type[Exception], ...]]
    # Whether other server processes may write the same database: then what a process caches
    # must be checked against the stored version before each use.
    shared: bool

    def sql(self, text: str) -> str:
        """`text` written with `?` placeholders, in the driver's style."""
        return text if self.placeholder == "?" else text.replace("?", self.placeholder)

    @abstractmethod
    def flag(self, column: str) -> str:
        """The condition "`column` is set" for a flag the dialect stores as it does (SQLite an
        INTEGER 0 / 1, PostgreSQL a BOOLEAN): the spelling partial indexes were made with."""

    @abstractmethod
    def connection(self) -> AbstractContextManager[Connection]:
        """A connection for reads, or for one statement, which is a transaction by itself."""

    @abstractmethod
    def transaction(self, lock: int = 0) -> AbstractContextManager[Connection]:
        """One transaction, committed when the block ends and rolled back when it raises;
        with `lock`, every transaction of that key runs alone, in every process."""

    @abstractmethod
    def lock(self, db: Connection, key: int) -> None:
        """Inside a transaction: hold the lock `key` till it ends (see `transaction`)."""

    @abstractmethod
    def columns(self, db: Connection, table: str) -> set[str]:
        """The names of the table's columns (a migration adds one only when missing)."""

    @abstractmethod
    def close(self) -> None: ...
