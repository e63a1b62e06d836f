"""Settings for apps built inside the test process.

Threading mode: gevent mode (the server's default) needs a process whose standard library was
patched from its start, which `python -m server` does and a pytest process must not.
"""

IN_PROCESS = {"ASYNC_MODE": "threading"}
