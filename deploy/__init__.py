"""Running the chess server as a local cluster: PostgreSQL, Redis, two processes, nginx."""
