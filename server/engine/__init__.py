"""The engines the server runs: the fair pool of worker processes (`pool`), what runs inside a
worker (`worker`), the analysis board's jobs (`analysis`), the UCI client (`uci`) and the
Stockfish process each worker keeps warm (`stockfish`)."""
