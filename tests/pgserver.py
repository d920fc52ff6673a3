"""A real PostgreSQL server for the tests, started from the machine's server binaries.

One server per test process (each xdist worker has its own): ``initdb`` into a temporary folder, then ``postgres``
listening on 127.0.0.1 at a free port, with no Unix socket. Run as root, the server runs as an unprivileged user
(``postgres`` when it exists, else one made for it), because PostgreSQL refuses to run as root.

The binaries are looked for in ``BELOTE_PG_BINDIR``, then ``pg_config --bindir``, then /usr/lib/postgresql/*/bin
(newest first), then on PATH. ``make test`` installs them when they are missing (see ``python -m tests.pgserver``).

The server trades durability for speed (fsync off): the tests kill the bot, never the database server.

``python -m tests.pgserver --check`` says where the binaries are, or what to do when there are none (exit 1).
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

SUPERUSER = "postgres"
NEEDED = ("initdb", "postgres", "psql")
INSTALL_HINT = (
    "PostgreSQL's server binaries (initdb, postgres, psql) were not found. Install them "
    "(Debian/Ubuntu: `apt-get install postgresql`; macOS: `brew install postgresql`), "
    "or point BELOTE_PG_BINDIR at the folder that holds them. `make test` installs them itself when run as root "
    "on Debian or Ubuntu."
)


class NoServer(RuntimeError):
    """No PostgreSQL server could be started here; the message says why and what to do."""


def _has_all(folder: str | Path) -> bool:
    return all(os.access(Path(folder) / name, os.X_OK) for name in NEEDED)


def _version_key(folder: str) -> tuple[int, ...]:
    name = Path(folder).parent.name
    return tuple(int(part) for part in name.split(".") if part.isdigit())


def find_bindir() -> Path | None:
    """The folder holding initdb, postgres and psql, or None."""
    chosen = os.environ.get("BELOTE_PG_BINDIR")
    if chosen:
        return Path(chosen) if _has_all(chosen) else None
    candidates: list[str] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, timeout=10, check=True)
            candidates.append(out.stdout.strip())
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_version_key, reverse=True)
    initdb = shutil.which("initdb")
    if initdb:
        candidates.append(str(Path(initdb).resolve().parent))
    for folder in candidates:
        if folder and _has_all(folder):
            return Path(folder)
    return None


def required(flag: str = "BELOTE_REQUIRE_POSTGRES") -> bool:
    """Whether a missing server (or another tool a test needs, named by ``flag``) is a failure rather than a skip: in
    CI and under ``make test``, which sets the flag."""
    return any(os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no") for name in ("CI", flag))


def _server_user() -> pwd.struct_passwd | None:
    """None when this process may run the server itself; else the unprivileged user to run it as (root only)."""
    if os.geteuid() != 0:
        return None
    for name in (SUPERUSER, "belote-pg"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    useradd = shutil.which("useradd") or "/usr/sbin/useradd"
    try:
        subprocess.run([useradd, "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "belote-pg"],
                       capture_output=True, check=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as exc:
        raise NoServer(f"running as root, and no unprivileged user could be made to run PostgreSQL: {exc}") from exc
    return pwd.getpwnam("belote-pg")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class PgServer:
    """A running server; ``url(database)`` for a client, ``new_database()`` for an empty database."""

    bindir: Path
    folder: Path
    port: int = 0
    process: subprocess.Popen[bytes] | None = None
    _user: pwd.struct_passwd | None = None
    _names: itertools.count[int] = field(default_factory=itertools.count)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def _as_server_user(self) -> dict[str, object]:
        if self._user is None:
            return {}
        return {"user": self._user.pw_uid, "group": self._user.pw_gid, "extra_groups": []}

    def psql(self, sql: str, database: str = "postgres") -> str:
        """Runs one SQL command with the server's own client; its output, or an error naming the command."""
        out = subprocess.run(
            [str(self.bindir / "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
             "-h", "127.0.0.1", "-p", str(self.port), "-U", SUPERUSER, "-d", database, "-c", sql],
            capture_output=True, text=True, timeout=60, env={**os.environ, "PGCONNECT_TIMEOUT": "10"},
        )
        if out.returncode != 0:
            raise RuntimeError(f"psql {sql!r} failed: {out.stderr.strip()}")
        return out.stdout

    def new_database(self) -> str:
        """A fresh empty database; its URL."""
        name = f"t{os.getpid()}_{next(self._names)}"
        self.psql(f'CREATE DATABASE "{name}" TEMPLATE template0 ENCODING \'UTF8\'')
        return self.url(name)

    def drop_database(self, url: str) -> None:
        name = url.rsplit("/", 1)[1]
        with contextlib.suppress(RuntimeError, subprocess.SubprocessError):
            self.psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def start(self, *, durable: bool = False) -> None:
        self._user = _server_user()
        data = self.folder / "data"
        if self._user is not None:
            os.chown(self.folder, self._user.pw_uid, self._user.pw_gid)
        initdb = subprocess.run(
            [str(self.bindir / "initdb"), "-D", str(data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8",
             "--locale=C", "--no-sync"],
            capture_output=True, text=True, timeout=180, cwd=self.folder, **self._as_server_user(),  # type: ignore[call-overload]
        )
        if initdb.returncode != 0:
            raise NoServer(f"initdb failed: {initdb.stderr.strip() or initdb.stdout.strip()}")
        settings = ["-c", "unix_socket_directories=", "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200",
                    "-c", "shared_buffers=32MB"]
        if not durable:
            settings += ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]
        last = ""
        for _attempt in range(5):  # another worker may take the free port between the probe and the bind
            self.port = _free_port()
            log = self.folder / f"server-{self.port}.log"
            with open(log, "wb") as sink:
                if self._user is not None:
                    os.chown(log, self._user.pw_uid, self._user.pw_gid)
                self.process = subprocess.Popen(
                    [str(self.bindir / "postgres"), "-D", str(data), "-p", str(self.port), *settings],
                    # In the test run's process group: a Ctrl-C of the run stops the server too.
                    stdout=sink, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=self.folder,
                    **self._as_server_user(),  # type: ignore[call-overload]
                )
            if self._wait_ready():
                return
            last = log.read_text(errors="replace").strip()
            self._stop_process()
        raise NoServer(f"PostgreSQL did not start: {last[-2000:]}")

    def _wait_ready(self, timeout: float = 60.0) -> bool:
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            probe = subprocess.run(
                [str(self.bindir / "psql"), "-X", "-A", "-t", "-h", "127.0.0.1", "-p", str(self.port),
                 "-U", SUPERUSER, "-d", "postgres", "-c", "SELECT 1"],
                capture_output=True, text=True, timeout=30, env={**os.environ, "PGCONNECT_TIMEOUT": "2"},
            )
            if probe.returncode == 0:
                return True
            time.sleep(0.1)
        return False

    def _stop_process(self) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGINT)  # "fast" shutdown: ends the sessions, then the server
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=30)

    def stop(self) -> None:
        self._stop_process()
        shutil.rmtree(self.folder, ignore_errors=True)


def start_server(*, durable: bool = False) -> PgServer:
    """Starts a server in a new temporary folder; raises NoServer saying why when it cannot."""
    bindir = find_bindir()
    if bindir is None:
        raise NoServer(INSTALL_HINT)
    server = PgServer(bindir=bindir, folder=Path(tempfile.mkdtemp(prefix="belote-pg-")))
    try:
        server.start(durable=durable)
    except BaseException:
        server.stop()
        raise
    atexit.register(server.stop)  # a run that ends without its fixtures' teardown leaves no server behind
    return server


def main(argv: list[str]) -> int:
    if argv[:1] == ["--check"]:
        bindir = find_bindir()
        if bindir is None:
            print(INSTALL_HINT, file=sys.stderr)
            return 1
        print(f"PostgreSQL server binaries: {bindir}")
        return 0
    if argv[:1] == ["--serve"]:  # a durable server until Ctrl+C, for the host bench: prints its URL
        for sig in (signal.SIGINT, signal.SIGTERM):  # a shell's background job starts with SIGINT ignored
            signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        server = start_server(durable=True)
        print(server.url(), flush=True)
        try:
            signal.sigwait({signal.SIGINT, signal.SIGTERM})
        finally:
            server.stop()
        return 0
    print("usage: python -m tests.pgserver --check | --serve", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
