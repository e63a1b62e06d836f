"""The transport: what meets the network. Socket.IO handlers (`events`), the HTTP JSON API (`api`)
and the pages (`views`); every payload parsed into a frozen dataclass at the edge (`requests`,
`query`, `json_limits`); what a hostile visitor meets (`guard`, `ratelimit`, `connections`,
`security`, `headers`); and what goes out: the notifier (`notifier`: rooms, roles, emit), the
messages per role (`messages`), JSON written once (`wire`), rooms across processes
(`broadcast`). It calls down into `server.games`, which reaches the rooms only through its
`Notifier` protocol (it still takes `wire`'s JSON text type from here).
"""
