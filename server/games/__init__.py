"""Games: the game service (`service`: lock, load, plan, commit, apply, notify) and what it
works with: games as data and pure actions returning `Change` values (`play`, `offers`,
`clock`, `seats`, and `actions`, their table), who may create a game (`admission`), the sweep
that ends abandoned games (`abandoned`), the computer's replies (`computer`, through the
engine pool of `server.engine`), one timer task for every clock (`scheduler`), the position
facts cached per position (`facts`) and the read-only lookups on a game (`lookups`). It knows
no transport: who is told of a change is the notifier's business, reached through the
`Notifier` protocol the service is given.
"""
