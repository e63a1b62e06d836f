"""Benchmarks run before and after a change, side by side in one run.

Usage: `python bench/compare.py --before REV [--after REV] [--rounds N]
[--args SCRIPT=ARGS ...] SCRIPT [SCRIPT ...] [-- ARGS]`, for instance a quick run of three:
`.venv/bin/python bench/compare.py --before HEAD~3 bench/update.py bench/insight.py
bench/state.py --args "update.py=--games 2" --args "insight.py=--positions 40" --args
"state.py=--positions 40"`, or of two that share their options: `.venv/bin/python
bench/compare.py --before main bench/insight.py bench/state.py -- --positions 40`.

`--before REV` is checked out with `git worktree add --detach` into a temporary directory,
removed at the end, on an error or Ctrl-C too; `--after` is this working tree as it is,
uncommitted changes included, unless it names a revision too. Each script runs as
`sys.executable SCRIPT ARGS` in each checkout, the checkout as working directory: the benches
put their own repository first on `sys.path`, so each side imports its own `chesscore` and
`server` (checked once per side before the first run). The rounds (`--rounds`, 3 by default)
alternate before and after, and which of the two goes first, so the machine's load hits both
alike. Arguments after `--` go to every script, then those of `--args SCRIPT=ARGS`
(repeatable, SCRIPT as given or its file name) to that script alone; a script without either
runs with its own defaults.

What is compared: the rows of each script's table, a label and then numeric columns (under a
header line naming the columns); other lines are ignored. For every row the lowest value of
its first numeric column over the rounds is kept for each side: the median in bench/update.py,
insight.py and state.py, so other processes can only have added to it. Per script the report
names that column and gives each row's value before and after and the ratio after/before; a
ratio more than 5% off 1 is called faster or slower (a size, whose label says "bytes",
smaller or larger). A row printed on one side only has a dash on the other. The report opens
with one line naming both revisions (short hash; "working tree", marked +dirty when tracked
files have uncommitted changes), the rounds, the Python version, the machine and its load
average at the end: other work on a shared machine moves ratios away from 1 either way, and
more rounds or larger samples settle them. A script that fails on either side stops the run
with the last lines of its stderr and exit status 1. bench/perft.py's first column is the
depth, not a time: that bench is not for this driver.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import machine

ROOT = Path(__file__).resolve().parent.parent

# A row: a label holding a letter, two or more spaces, then numeric columns only (1,234 and
# 95.0% included). The label is matched lazily so that "position 4    3    9467" keeps its 4.
NUMBER = r"[-+]?\d[\d,]*(?:\.\d+)?%?"
ROW = re.compile(rf"^\s*(?P<label>.*?[A-Za-z].*?)\s{{2,}}(?P<numbers>{NUMBER}(?:\s+{NUMBER})*)\s*$")

# Beyond this share either way a ratio is called faster or slower; within it, run-to-run noise.
NOISE = 0.05

STDERR_TAIL_LINES = 25


class CompareError(Exception):
    """A run that cannot go on: a bad revision or script, or a script that failed."""


@dataclass(frozen=True)
class Side:
    """One of the two revisions: its name in the report, and the commit to check out (None for
    this working tree)."""

    name: str
    title: str
    commit: str | None


@dataclass
class Table:
    """What one run of a script printed: each row's first numeric value, and the titles of the
    label column and of that value's column."""

    values: dict[str, float] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    label_title: str = ""
    column_title: str = "first column"


def git(*args: str) -> str:
    done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise CompareError(f"git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout.strip()


def resolve_revision(name: str, revision: str) -> Side:
    try:
        commit = git("rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    except CompareError:
        raise CompareError(f"--{name} {revision!r} is not a revision of {ROOT}") from None
    short = git("rev-parse", "--short", commit)
    title = short if commit.startswith(revision) else f"{short} ({revision})"
    return Side(name, title, commit)


def working_tree() -> Side:
    """This checkout as it is; +dirty when tracked files differ from HEAD (untracked files are
    left out: a symlinked .venv would mark every tree)."""
    dirty = git("status", "--porcelain", "--untracked-files=no") != ""
    return Side("after", f"working tree at {git('rev-parse', '--short', 'HEAD')}"
                + ("+dirty" if dirty else ""), None)  # fmt: skip


def resolve_script(script: str) -> str:
    """The script's path relative to the repository root, as every checkout holds it."""
    path = (Path.cwd() / script).resolve()
    if not path.is_relative_to(ROOT):
        raise CompareError(f"{script} is not inside {ROOT}")
    return path.relative_to(ROOT).as_posix()


def check_scripts(scripts: list[str], sides: Sequence[Side]) -> None:
    for script in scripts:
        for side in sides:
            found = (
                (ROOT / script).is_file()
                if side.commit is None
                else subprocess.run(
                    ["git", "-C", str(ROOT), "cat-file", "-e", f"{side.commit}:{script}"],
                    capture_output=True,
                ).returncode
                == 0
            )
            if not found:
                raise CompareError(f"{script} is not in {side.name}, {side.title}")


def script_arguments(
    scripts: list[str], common: list[str], pairs: list[str]
) -> dict[str, list[str]]:
    """Per script: the arguments after `--`, then its own from `--args SCRIPT=ARGS`."""
    arguments = {script: list(common) for script in scripts}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise CompareError(f"--args {pair!r}: expected SCRIPT=ARGS")
        matches = [s for s in scripts if key in (s, Path(s).name) or resolve_script(key) == s]
        if len(matches) != 1:
            raise CompareError(f"--args {pair!r}: {key!r} names none of the scripts {scripts}")
        arguments[matches[0]].extend(shlex.split(value))
    return arguments


@contextmanager
def checkouts(sides: Sequence[Side]) -> Iterator[dict[str, Path]]:
    """Side name -> directory: a detached worktree in a temporary directory for a revision,
    this repository for the working tree; the worktrees are removed however the run ends."""
    temporary = Path(tempfile.mkdtemp(prefix="bench-compare-"))
    added: list[Path] = []
    try:
        directories = {}
        for side in sides:
            if side.commit is None:
                directories[side.name] = ROOT
                continue
            directory = temporary / side.name
            git("worktree", "add", "--detach", "--quiet", str(directory), side.commit)
            added.append(directory)
            directories[side.name] = directory
        yield directories
    finally:
        for directory in added:
            try:
                git("worktree", "remove", "--force", str(directory))
            except CompareError as error:
                print(f"warning: {error}; `git worktree prune` forgets it", file=sys.stderr)
        shutil.rmtree(temporary, ignore_errors=True)


def check_imports(side: Side, directory: Path) -> None:
    """The packages a bench imports once its checkout leads `sys.path`, as each bench puts it,
    must come from that checkout (and not, say, from the venv's editable install)."""
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]); import chesscore; print(chesscore.__file__)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(directory)], capture_output=True, text=True, cwd=directory
    )
    imported = Path(done.stdout.strip()).resolve()
    if done.returncode != 0 or not imported.is_relative_to(directory.resolve()):
        raise CompareError(
            f"{side.name}, {side.title}, imports chesscore from {imported}, not from {directory}"
            f"\n{done.stderr[-2000:]}"
        )


def run_script(side: Side, directory: Path, script: str, arguments: list[str]) -> str:
    done = subprocess.run(
        [sys.executable, script, *arguments], capture_output=True, text=True, cwd=directory
    )
    if done.returncode != 0:
        tail = "\n".join(done.stderr.rstrip().splitlines()[-STDERR_TAIL_LINES:])
        raise CompareError(
            f"{script} {shlex.join(arguments)} failed at {side.name}, {side.title}, with exit "
            f"status {done.returncode}; its stderr ends:\n{tail}"
        )
    return done.stdout


def parse_number(text: str) -> float:
    return float(text.replace(",", "").rstrip("%"))


def name_columns(table: Table, header: str, row: re.Match[str]) -> None:
    """The titles of the label column and of the first numeric one: the header's phrases (words
    one space apart) whose end is nearest the first number's, and the one before it."""
    first_end = row.start("numbers") + len(row.group("numbers").split()[0])
    phrases = list(re.finditer(r"\S+(?: \S+)*", header))
    if not phrases:
        return
    nearest = min(range(len(phrases)), key=lambda index: abs(phrases[index].end() - first_end))
    table.column_title = phrases[nearest].group()
    table.label_title = phrases[nearest - 1].group() if nearest > 0 else ""


def parse_table(output: str) -> Table:
    """The rows of a bench's report; a label printed twice is kept as "label (2)"."""
    table = Table()
    header = ""
    for line in output.splitlines():
        row = ROW.match(line)
        if row is None:
            if line.strip() and not table.values:
                header = line
            continue
        if not table.values:
            name_columns(table, header, row)
        label, text = row.group("label").strip(), row.group("numbers").split()[0]
        count = 1
        while (unique := label if count == 1 else f"{label} ({count})") in table.values:
            count += 1
        table.values[unique] = parse_number(text)
        table.texts[unique] = text
    return table


def keep_best(best: Table | None, table: Table) -> Table:
    """Per row, the lower of the two values (a row missing from one run keeps the other's)."""
    if best is None:
        return table
    for label, value in table.values.items():
        if label not in best.values or value < best.values[label]:
            best.values[label] = value
            best.texts[label] = table.texts[label]
    return best


def verdict(label: str, ratio: float) -> str:
    if abs(ratio - 1) <= NOISE:
        return ""
    if "bytes" in label:
        return "smaller" if ratio < 1 else "larger"
    return "faster" if ratio < 1 else "slower"


def format_comparison(before: Table, after: Table) -> list[str]:
    """Label, before, after, after/before and the verdict, one line per row of either side."""
    labels = list(before.values) + [label for label in after.values if label not in before.values]
    label_title = before.label_title or after.label_title
    width = max(len(label_title), *(len(label) for label in labels)) + 2
    lines = [f"{label_title:<{width}}{'before':>10}{'after':>10}{'after/before':>14}"]
    for label in labels:
        old, new = before.values.get(label), after.values.get(label)
        ratio = f"{new / old:.2f}x" if old and new is not None else "-"
        mark = verdict(label, new / old) if old and new is not None else ""
        lines.append(
            f"{label:<{width}}{before.texts.get(label, '-'):>10}{after.texts.get(label, '-'):>10}"
            f"{ratio:>14}  {mark}".rstrip()
        )
    return lines


def measure(
    sides: Sequence[Side], scripts: dict[str, list[str]], rounds: int
) -> dict[tuple[str, str], Table]:
    """(script, side name) -> the best of each row over the rounds, the sides alternating."""
    best: dict[tuple[str, str], Table] = {}
    with checkouts(sides) as directories:
        for side in sides:
            check_imports(side, directories[side.name])
        for round_ in range(rounds):
            order = sides if round_ % 2 == 0 else list(reversed(sides))
            for script, arguments in scripts.items():
                for side in order:
                    print(f"round {round_ + 1}/{rounds}: {script} {side.name}", file=sys.stderr)
                    output = run_script(side, directories[side.name], script, arguments)
                    table = parse_table(output)
                    if not table.values:
                        raise CompareError(
                            f"{script} printed no table rows at {side.name}, {side.title}:\n"
                            f"{output[-2000:]}"
                        )
                    best[script, side.name] = keep_best(best.get((script, side.name)), table)
    return best


def parse_args(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """The driver's own options, and the arguments after `--` for every script."""
    common: list[str] = []
    if "--" in argv:
        argv, common = argv[: argv.index("--")], argv[argv.index("--") + 1 :]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, metavar="REV", help="the revision before")
    parser.add_argument("--after", metavar="REV", help="default: this working tree as it is")
    parser.add_argument("--rounds", type=int, default=3, help="runs per script and side")
    parser.add_argument(
        "--args",
        action="append",
        default=[],
        metavar="SCRIPT=ARGS",
        help='arguments for one script, e.g. "bench/update.py=--games 2" (repeatable)',
    )
    parser.add_argument("scripts", nargs="+", metavar="SCRIPT")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    return args, common


def stop_on_signal(signum: int, frame: object) -> None:
    """SIGTERM and SIGHUP end the run as Ctrl-C does, through the clean-up."""
    raise KeyboardInterrupt


def main() -> int:
    args, common = parse_args(sys.argv[1:])
    signal.signal(signal.SIGTERM, stop_on_signal)
    signal.signal(signal.SIGHUP, stop_on_signal)
    try:
        before = resolve_revision("before", args.before)
        after = working_tree() if args.after is None else resolve_revision("after", args.after)
        scripts = [resolve_script(script) for script in args.scripts]
        check_scripts(scripts, [before, after])
        arguments = script_arguments(scripts, common, args.args)
        best = measure([before, after], arguments, args.rounds)
    except CompareError as error:
        print(f"bench/compare.py: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("bench/compare.py: interrupted; the temporary checkouts are removed", file=sys.stderr)
        return 130
    print(
        f"before {before.title}; after {after.title}; best of {args.rounds} alternating rounds; "
        f"Python {platform.python_version()}; {machine()}; load average {os.getloadavg()[0]:.1f}"
    )
    for script, script_args in arguments.items():
        old, new = best[script, "before"], best[script, "after"]
        print(f"\n{shlex.join([script, *script_args])}: {old.column_title}, lowest over the rounds")
        print("\n".join(format_comparison(old, new)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
