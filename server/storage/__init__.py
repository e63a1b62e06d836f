"""Storage, below every domain: the database (`database`: connections, transactions and locks
written once for both dialects), its two dialects, SQLite embedded (`sqlite`) and PostgreSQL for
several processes (`postgres`), opening the configured one (`open`), and the numbered schema
migrations' runner (`migrations`). It imports no domain: each domain writes its own tables in
its `tables` module, against `Database`.
"""
