"""Process facts read from Linux's /proc, for tests and benchmarks that watch a server's workers."""

from __future__ import annotations

import os
import time
from pathlib import Path


def _stat_fields(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name, or None once the process is gone."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def children_of(pid: int) -> list[int]:
    """The ids of the processes whose parent is `pid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat_fields(int(entry.name))
            if fields is not None and int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def is_alive(pid: int) -> bool:
    """True while the process exists and is not a zombie."""
    fields = _stat_fields(pid)
    return fields is not None and fields[0] != "Z"


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of one process; 0 once it is gone."""
    fields = _stat_fields(pid)
    if fields is None:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def niceness(pid: int) -> int:
    """The process's nice value (its stat's 19th field); ValueError once it is gone."""
    fields = _stat_fields(pid)
    if fields is None:
        raise ValueError(f"no process {pid}")
    return int(fields[16])


def survivors(pids: list[int], seconds: float) -> list[int]:
    """Those of `pids` still alive after waiting up to `seconds` for all to end (a guard
    against hanging, not a speed requirement)."""
    deadline = time.monotonic() + seconds
    while any(is_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    return [pid for pid in pids if is_alive(pid)]
