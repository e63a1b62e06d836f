"""The transport: what meets the network. Socket.IO handlers (`events`), the HTTP JSON API
(`api`) and the pages (`views`); every payload parsed into a frozen dataclass at the edge
(`requests`, `query`, `json_limits`); what a hostile visitor meets (`guard`, `ratelimit`,
`connections`, `security`, `headers`); and what goes out: the messages per role
(`messages`), JSON written once (`wire`), rooms across processes (`broadcast`). It calls down
into `server.games`; nothing below imports it back, except the JSON text type of `wire`.
"""
