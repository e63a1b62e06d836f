"""Start and stop a local cluster: PostgreSQL, Redis, two server processes and nginx on 127.0.0.1.

`python -m deploy.cluster start` (what `make cluster` runs) brings everything up under
`instance/cluster` and prints the address to open; `python -m deploy.cluster stop` takes it down
again. The pieces are separate functions because the cluster tests start the same services in
a temporary folder and drive the server processes themselves (to kill one, say). PostgreSQL
gets its own throwaway database cluster (`initdb`) on its own port, so nothing on the machine is
touched; PostgreSQL refuses to run as root, so as root its programs run as the `postgres` user
through `runuser`, in a folder that user owns. Every service listens on 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NGINX_TEMPLATE = Path(__file__).resolve().parent / "nginx.conf.template"
DEFAULT_FOLDER = ROOT / "instance" / "cluster"
DEFAULT_PORTS = {"nginx": 8080, "servers": [5001, 5002], "postgres": 5433, "redis": 6380}
DATABASE = "chess"
START_SECONDS = 30.0


# -- finding the programs ----------------------------------------------------------------


def find_program(name: str) -> str | None:
    """A program on PATH, in /usr/sbin, or (PostgreSQL's) in Debian's versioned folder."""
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin")
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=_version_key)
    return versions[-1] if versions else None


def _version_key(path: str) -> int:
    version = Path(path).parent.parent.name
    return int(version) if version.isdigit() else 0


def missing_programs() -> list[str]:
    """What the cluster needs and this machine lacks (programs and Python packages)."""
    programs = ("initdb", "pg_ctl", "redis-server", "nginx")
    missing = [name for name in programs if not find_program(name)]
    for module, package in (("psycopg", "psycopg[binary]"), ("redis", "redis")):
        try:
            __import__(module)
        except ImportError:
            missing.append(f"Python package {package}")
    if os.geteuid() == 0 and not shutil.which("runuser"):
        missing.append("runuser (PostgreSQL cannot run as root)")
    return missing


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, what: str, timeout: float = START_SECONDS) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{what} did not listen on 127.0.0.1:{port} within {timeout}s")


# -- PostgreSQL ------------------------------------------------------------------------------


def _as_postgres_user(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run its programs as the `postgres` user then."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def start_postgres(folder: Path, port: int) -> str:
    """Create (first time) and start a database cluster in `folder/postgres`; its URL."""
    home = folder / "postgres"
    data = home / "data"
    if not data.exists():
        home.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(home, "postgres", "postgres")
        initdb = find_program("initdb") or "initdb"
        command = [initdb, "-D", str(data), "-U", "chess", "--auth=trust", "-E", "UTF8"]
        subprocess.run(_as_postgres_user([*command, "--no-sync"]), check=True, capture_output=True)
    options = f"-p {port} -k {home} -c listen_addresses=127.0.0.1 -c max_connections=200"
    pg_ctl = find_program("pg_ctl") or "pg_ctl"
    command = [pg_ctl, "-D", str(data), "-l", str(home / "postgres.log"), "-o", options, "-w"]
    subprocess.run(_as_postgres_user([*command, "start"]), check=True, capture_output=True)
    _create_database(port)
    return f"postgresql://chess@127.0.0.1:{port}/{DATABASE}"


def _create_database(port: int) -> None:
    import psycopg

    with psycopg.connect(f"postgresql://chess@127.0.0.1:{port}/postgres", autocommit=True) as db:
        exists = db.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)).fetchone()
        if exists is None:
            db.execute(f"CREATE DATABASE {DATABASE}")


def stop_postgres(folder: Path) -> None:
    data = folder / "postgres" / "data"
    if (data / "postmaster.pid").exists():
        pg_ctl = find_program("pg_ctl") or "pg_ctl"
        command = [pg_ctl, "-D", str(data), "-m", "fast", "-w", "stop"]
        subprocess.run(_as_postgres_user(command), check=False, capture_output=True)


# -- Redis and nginx --------------------------------------------------------------------------


def start_redis(folder: Path, port: int) -> str:
    """A Redis that keeps nothing on disk (it only carries broadcasts); its URL."""
    folder.mkdir(parents=True, exist_ok=True)
    redis_server = find_program("redis-server") or "redis-server"
    command = [redis_server, "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
    command += ["--appendonly", "no", "--dir", str(folder), "--daemonize", "yes"]
    command += ["--pidfile", str(folder / "redis.pid"), "--logfile", str(folder / "redis.log")]
    subprocess.run(command, check=True, capture_output=True)
    wait_for_port(port, "Redis")
    return f"redis://127.0.0.1:{port}/0"


def render_nginx_config(folder: Path, port: int, server_ports: list[int]) -> Path:
    servers = "\n".join(
        f"        server 127.0.0.1:{server_port} max_fails=1 fail_timeout=5s;"
        for server_port in server_ports
    )
    # As root the workers would switch to `nobody`, who cannot use this folder.
    user_line = "user root;" if os.geteuid() == 0 else ""
    text = NGINX_TEMPLATE.read_text().format(
        folder=folder, port=port, servers=servers, user_line=user_line
    )
    path = folder / "nginx.conf"
    path.write_text(text)
    return path


def start_nginx(folder: Path, port: int, server_ports: list[int]) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    config = render_nginx_config(folder, port, server_ports)
    nginx = find_program("nginx") or "nginx"
    error_log = str(folder / "nginx-error.log")
    subprocess.run(
        [nginx, "-e", error_log, "-p", str(folder), "-c", str(config)],
        check=True,
        capture_output=True,
    )
    wait_for_port(port, "nginx")
    return f"http://127.0.0.1:{port}"


def stop_by_pid_file(path: Path) -> None:
    """Terminate the process a pid file names (one this script started), then wait a little."""
    if not path.exists():
        return
    try:
        pid = int(path.read_text().strip())
        os.kill(pid, signal.SIGTERM)
    except (ValueError, ProcessLookupError):
        return
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)


# -- server processes --------------------------------------------------------------------------


def server_environment(folder: Path, index: int, database: str, redis: str) -> dict[str, str]:
    """What a cluster's server process needs: the shared database, queue and secret key, and
    the proxy it sits behind."""
    key_file = folder / "secret_key"
    if not key_file.exists():
        key_file.write_text(secrets.token_hex(32))
        key_file.chmod(0o600)
    return {
        "DATABASE_URL": database,
        "REDIS_URL": redis,
        "CHESS_SECRET_KEY": key_file.read_text().strip(),
        "CHESS_INSTANCE_PATH": str(folder / f"server-{index}"),
        # Every request comes through nginx, which appends the client's address to
        # X-Forwarded-For (nginx.conf.template): the per-address limits go by that entry.
        "CHESS_TRUSTED_PROXIES": "1",
    }


def start_server(
    folder: Path,
    index: int,
    port: int,
    environment: dict[str, str],
    program: tuple[str, ...] = ("-m", "server"),
) -> int:
    """Start `python -m server` (or another `program` taking --host and --port) in its own
    session (it outlives this script); its pid."""
    instance = Path(environment["CHESS_INSTANCE_PATH"])
    instance.mkdir(parents=True, exist_ok=True)
    with open(instance / "server.log", "ab") as log:
        process = subprocess.Popen(
            [sys.executable, *program, "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT,
            env={**os.environ, **environment},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    (folder / f"server-{index}.pid").write_text(str(process.pid))
    wait_for_port(port, f"server process {index}")
    return process.pid


# -- the whole cluster -------------------------------------------------------------------------


def start(folder: Path, ports: dict[str, object]) -> str:
    missing = missing_programs()
    if missing:
        raise SystemExit(f"cannot start the cluster, missing: {', '.join(missing)}")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ports.json").write_text(json.dumps(ports))
    server_ports = list(ports["servers"])  # type: ignore[call-overload]
    database = start_postgres(folder, int(ports["postgres"]))  # type: ignore[call-overload]
    redis = start_redis(folder, int(ports["redis"]))  # type: ignore[call-overload]
    for index, port in enumerate(server_ports, start=1):
        start_server(folder, index, port, server_environment(folder, index, database, redis))
    return start_nginx(folder, int(ports["nginx"]), server_ports)  # type: ignore[call-overload]


def stop(folder: Path) -> None:
    """Stop whatever a `start` in `folder` left running (in the reverse order)."""
    stop_by_pid_file(folder / "nginx.pid")
    for pid_file in sorted(folder.glob("server-*.pid")):
        stop_by_pid_file(pid_file)
        pid_file.unlink()
    stop_by_pid_file(folder / "redis.pid")
    stop_postgres(folder)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m deploy.cluster", description=__doc__)
    parser.add_argument("action", choices=["start", "stop"])
    parser.add_argument("--folder", type=Path, default=DEFAULT_FOLDER, help="where state lives")
    parser.add_argument("--port", type=int, default=DEFAULT_PORTS["nginx"], help="nginx's port")
    args = parser.parse_args(argv)
    folder = args.folder.resolve()
    if args.action == "stop":
        stop(folder)
        print(f"Cluster in {folder} stopped")
        return
    try:
        url = start(folder, {**DEFAULT_PORTS, "nginx": args.port})
    except (subprocess.CalledProcessError, RuntimeError, OSError) as error:
        stop(folder)
        detail = (getattr(error, "stderr", b"") or b"").decode(errors="replace")
        raise SystemExit(f"cluster start failed: {error} {detail}") from None
    print(f"Cluster running: open {url} (state and logs in {folder}); stop with make cluster-stop")


if __name__ == "__main__":
    main()
