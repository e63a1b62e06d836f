"""The engines the server runs: the pool of worker processes (`pool`, which carries out the
decisions of the scheduling policy, `schedule`: who gets the next lane), the worker processes
(`lanes`) and what runs inside one (`worker`), the watchdog's clock (`watchdog`), the jobs (a
game's search, `game_search`; the analysis board's, `analysis`; one position by Stockfish,
`positions`), the UCI client (`uci`) and the Stockfish process each worker keeps warm
(`stockfish`)."""
