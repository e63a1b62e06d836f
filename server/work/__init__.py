"""Work that would stall the serving loop, run in a bounded pool of worker processes.

The server answers every visitor from one process (gevent: CPU work there blocks every other
greenlet), so anything that can compute for more than a few milliseconds on a visitor's input
(a PGN file read, a tree replayed, an annotated export) runs here instead: `pool` (the worker
processes, a bounded queue, a time bound per job) and `admission` (per address, before any
parsing: a token bucket costed by size, one job in flight). What the workers run for the
HTTP API is the transport's (server.analysis.jobs).
"""
