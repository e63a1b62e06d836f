"""The threat trainer's server side (issue 28): positions, pending drills, judging, the page.

`positions` gives the positions drills are made on (a set shipped in `data/`, and games played
here once finished), `pending` keeps each drill's answer on the server until it is answered,
`service` chooses and judges drills over chesscore.training, `requests` parses what a client
sends and `http` is the page and the JSON API (docs/protocol.md, "Threat trainer").
"""
