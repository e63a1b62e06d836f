"""Storage: the interface every back end keeps (`interface`: `GameStore`, `open_store`, the
stored rows) and its two back ends, SQLite embedded (`sqlite`) and PostgreSQL for several
processes (`postgres`), which read a game back from its rows the same way (`rows`).
"""
