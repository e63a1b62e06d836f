"""The network's edge: what meets the network and knows no chess.

The servers (`http_server` for gevent, `threaded_server` for threading mode), connection and
frame limits (`connection_limits`, `frame_meter`), the guards around Engine.IO and Socket.IO
(`guard`), the WSGI middleware every request meets first (`wsgi`: hosts, the cross-site check
of `origins`, the `headers`), size and secret settings (`security`), bounded JSON (`json_limits`),
who a client is (`clients`, `ratelimit`), a connection's roles and buckets (`connections`), how
JSON is written and broadcast (`wire`, `broadcast`), numbers in URLs (`query`) and the credits
page of what is sent to browsers (`credits`). Every feature may use this package; it uses none
of them.
"""
