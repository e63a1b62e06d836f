"""The analysis board's engine settings a browser test starts with.

The engine thinks until stopped, not the default 8 s: on a busy machine 8 s of wall time may
not reach the depths the tests wait for. Set only where nothing is kept yet, so a setting a
test chooses survives its reloads; add it with `context.add_init_script`.
"""

THINK_UNTIL_STOPPED = (
    "if (!localStorage.getItem('chess.analysisEngineSettings'))"
    " localStorage.setItem('chess.analysisEngineSettings', JSON.stringify({movetime: null}));"
)
