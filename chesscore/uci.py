"""The documented entry point of the UCI engine: `python -m chesscore.uci` runs
`chesscore.engine.uci.main`, which speaks the Universal Chess Interface on stdin/stdout. The
engine itself lives in chesscore.engine; this module only keeps the command short and stable.
"""

from chesscore.engine.uci import main

if __name__ == "__main__":
    main()
