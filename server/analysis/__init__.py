"""Analysis: the analysis board's domain. A move tree travels between the page and the server
in a flat form (`tree`); the service imports PGN files and FEN positions into it, stores a tree
someone shares under a short id and reads it back (`service`). The page holds the tree while it
is worked on, and asks the transport about one node at a time (its facts, the engine's lines).
"""
