"""The machine a benchmark ran on, for the line its figures are printed under."""

from __future__ import annotations

import os
import platform
from pathlib import Path


def cpu_name() -> str:
    """The processor's model name (from /proc/cpuinfo where there is one)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> str:
    """ "<cpu>, <n> cores, <architecture>"."""
    return f"{cpu_name()}, {os.cpu_count()} cores, {platform.machine()}"
