"""Build the Dockerfile and run the image as the README does, without a Docker engine.

    sudo apt-get install podman buildah debootstrap runc     # Debian 12
    sudo .venv/bin/python tools/docker_check.py          # prints each check, exits 0 if all pass

No registry image can be pulled here, so a stand-in for `python:3.11-slim-bookworm` is made
first: a Debian 12 root file system (debootstrap, minimal variant) with Debian's Python 3.11,
venv and pip, imported into podman's local store under that very name. The Dockerfile is
then built unchanged by podman (buildah inside, the same BuildKit-less reading of the file
Docker's classic builder does) with `--pull=never`, so the stand-in is what FROM gets.
The stand-in differs from the official image in where Python lives (/usr/bin rather than
/usr/local/bin) and in Debian's patch level of 3.11; the userland (useradd, groupadd, glibc,
SQLite 3.40) is the same Debian 12.

Then the image is run: as user and group 10001 with no /app or source tree left in it; the
README's `--check-config`, console and autoplay commands on a volume; a host folder the
container cannot write (one line naming database.path and `chown -R 10001:10001`), then the
same folder after that chown; and the bot itself answering a slash command from the fake
Discord (tests/fakediscord, on 127.0.0.1 with host networking) until `podman stop`, which
must end it cleanly with status 0.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the fake Discord lives with the tests

STANDIN = "docker.io/library/python:3.11-slim-bookworm"
STANDIN_LABEL = "barrage.standin"
IMAGE = "localhost/barrage-bot:check"
PACKAGES = "python3,python3-venv,python3-pip,python-is-python3,ca-certificates"
TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAwMQ.Dck0Ck.docker-check-token-never-real-x"

results: list[tuple[str, bool, str]] = []


def run(
    cmd: Sequence[str], *, stdin: str | None = None, timeout: float = 900
) -> subprocess.CompletedProcess[str]:
    """Run a command, capturing its output as text."""
    return subprocess.run(
        list(cmd), input=stdin, capture_output=True, text=True, timeout=timeout, check=False
    )


def check(name: str, ok: bool, detail: str = "") -> None:
    """Record and print one check."""
    results.append((name, ok, detail))
    print(
        f"{'PASS' if ok else 'FAIL'}  {name}" + (f"\n      {detail}" if detail and not ok else "")
    )


def debian_mirror() -> str:
    """The Debian mirror this machine's apt uses (so the stand-in comes from the same place)."""
    for source in [Path("/etc/apt/sources.list.d/debian.sources"), Path("/etc/apt/sources.list")]:
        if source.is_file():
            text = source.read_text()
            found = re.search(r"^URIs:\s*(\S+)", text, re.M) or re.search(
                r"^deb\s+(?:\[[^]]*\]\s+)?(\S+)\s+bookworm\s", text, re.M
            )
            if found:
                return found[1]
    raise SystemExit("no Debian mirror found in /etc/apt: cannot debootstrap a stand-in")


def build_standin(rebuild: bool) -> None:
    """Make the stand-in base image unless podman already has it."""
    have = run(["podman", "image", "inspect", "--format", "{{.Labels}}", STANDIN])
    if have.returncode == 0 and not rebuild:
        if STANDIN_LABEL not in have.stdout:
            raise SystemExit(f"{STANDIN} exists and is not our stand-in; remove it first")
        print(f"stand-in base image {STANDIN} is there already")
        return
    with tempfile.TemporaryDirectory(prefix="barrage-standin-", dir="/var/tmp") as tmp:
        rootfs = Path(tmp) / "rootfs"
        print(f"debootstrap: Debian 12 with {PACKAGES} ...", flush=True)
        boot = run(
            [
                "debootstrap",
                "--variant=minbase",
                f"--include={PACKAGES}",
                "bookworm",
                str(rootfs),
                debian_mirror(),
            ],
            timeout=1800,
        )
        if boot.returncode != 0:
            raise SystemExit(f"debootstrap failed:\n{boot.stdout[-3000:]}{boot.stderr[-3000:]}")
        # Like the official image: pip may install system-wide (no PEP 668 marker).
        (rootfs / "usr/lib/python3.11/EXTERNALLY-MANAGED").unlink(missing_ok=True)
        # Trust what this machine trusts, so pip reaches PyPI the way the host does.
        shutil.copy(
            "/etc/ssl/certs/ca-certificates.crt", rootfs / "etc/ssl/certs/ca-certificates.crt"
        )
        shutil.rmtree(rootfs / "var/cache/apt/archives", ignore_errors=True)
        tar = subprocess.Popen(["tar", "-C", str(rootfs), "-c", "."], stdout=subprocess.PIPE)
        imported = subprocess.run(
            [
                "podman",
                "import",
                "--change",
                "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                "--change",
                "ENV LANG=C.UTF-8",
                "--change",
                'CMD ["python3"]',
                "--change",
                f"LABEL {STANDIN_LABEL}=debootstrap-bookworm",
                "-",
                STANDIN,
            ],
            stdin=tar.stdout,
            capture_output=True,
            text=True,
            check=False,
        )
        tar.wait()
        if imported.returncode != 0:
            raise SystemExit(f"podman import failed: {imported.stderr}")
    print(f"stand-in base image {STANDIN} imported")


#: For machines whose cgroups are a v1/v2 hybrid (crun refuses those) and whose root may not
#: raise resource limits (podman's default ulimits are then refused): runc, lower ulimits.
COMPAT_CONF = """\
[containers]
default_ulimits = ["nofile=16384:16384", "nproc=32768:32768"]
[engine]
runtime = "runc"
"""


def choose_engine_settings(workdir: Path) -> None:
    """Keep podman's defaults if a container starts with them, else use COMPAT_CONF."""
    probe = run(["podman", "run", "--rm", "--network=none", "--entrypoint", "true", STANDIN])
    if probe.returncode == 0:
        return
    if shutil.which("runc") is None:
        raise SystemExit(
            f"containers do not start ({probe.stderr.strip()}); try: apt-get install runc"
        )
    conf = workdir / "containers.conf"
    conf.write_text(COMPAT_CONF)
    os.environ["CONTAINERS_CONF"] = str(conf)
    print(
        f"podman's defaults fail here ({probe.stderr.strip()[:120]}); using runc and lower ulimits"
    )
    again = run(["podman", "run", "--rm", "--network=none", "--entrypoint", "true", STANDIN])
    if again.returncode != 0:
        raise SystemExit(f"containers do not start: {again.stderr.strip()}")


def build_image() -> bool:
    """Build the project's Dockerfile, unchanged, on the stand-in."""
    print("podman build (the Dockerfile as it is) ...", flush=True)
    built = run(
        [
            "podman",
            "build",
            "--pull=never",
            "--network=host",
            "-t",
            IMAGE,
            "-f",
            str(ROOT / "Dockerfile"),
            str(ROOT),
        ],
        timeout=1800,
    )
    check("the image builds", built.returncode == 0, (built.stdout + built.stderr)[-3000:])
    return built.returncode == 0


def in_image(
    *cmd: str,
    entrypoint: str = "sh",
    volume: str | None = None,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """`podman run --rm` the image with an entry point and arguments."""
    args = ["podman", "run", "--rm", "--network=none"]
    if stdin is not None:
        args.append("-i")
    if volume:
        args += ["-v", volume]
    for key, value in (env or {}).items():
        args += ["-e", f"{key}={value}"]
    return run([*args, "--entrypoint", entrypoint, IMAGE, *cmd], stdin=stdin)


def static_checks() -> None:
    """Who runs, what is left in the image, what the entry point does."""
    ident = in_image("-c", "id -u; id -g; id -gn; echo $HOME; pwd")
    check(
        "runs as uid 10001, gid 10001 (group barrage), home and workdir /data",
        ident.stdout.split() == ["10001", "10001", "barrage", "/data", "/data"],
        ident.stdout,
    )
    left = in_image(
        "-c",
        "ls -d /app /src /root/.cache/pip 2>/dev/null; "
        "find / -xdev \\( -name pyproject.toml -o -name constraints.txt \\) "
        "-not -path '/proc/*' 2>/dev/null | grep -v site-packages; true",
    )
    check(
        "no /app, /src, pip cache or build files in the image",
        left.stdout.strip() == "",
        left.stdout,
    )
    helped = in_image("--help", entrypoint="barrage-bot")
    check(
        "barrage-bot --help",
        helped.returncode == 0 and "--check-config" in helped.stdout,
        helped.stderr,
    )


def volume_checks(workdir: Path) -> None:
    """The README's commands on a named volume and on host folders."""
    volume = "barrage-check-data"
    run(["podman", "volume", "rm", "-f", volume])
    env = {"BARRAGE_BOT_TOKEN": TOKEN}
    checked = in_image(
        "--check-config", entrypoint="barrage-bot", volume=f"{volume}:/data", env=env
    )
    check(
        "--check-config on a fresh named volume",
        checked.returncode == 0
        and "can be written" in checked.stderr
        and TOKEN not in checked.stderr,
        checked.stderr,
    )
    played = in_image(
        "console",
        "--autoplay",
        "--players",
        "2",
        "--seed",
        "5",
        entrypoint="barrage-bot",
        volume=f"{volume}:/data",
    )
    check(
        "console --autoplay plays a game to its end",
        played.returncode == 0 and "(finished)" in played.stdout,
        played.stderr[-2000:],
    )
    seat = in_image(
        "console",
        "--players",
        "2",
        "--names",
        "Ann,Bob",
        entrypoint="barrage-bot",
        volume=f"{volume}:/data",
        stdin="1\nquit\n",
    )
    again = in_image("console", entrypoint="barrage-bot", volume=f"{volume}:/data", stdin="quit\n")
    check(
        "the hot-seat console keeps its game on the volume",
        seat.returncode == 0
        and "saved in barrage-console.sqlite3" in seat.stdout
        and "Continuing game #1" in again.stdout
        and "done: " in again.stdout,
        seat.stdout[-1500:] + seat.stderr + again.stdout[-1500:] + again.stderr,
    )
    run(["podman", "volume", "rm", "-f", volume])

    host = workdir / "host-data"
    host.mkdir()
    host.chmod(0o755)  # owned by root: the container's user 10001 cannot write it
    for args in ([], ["--check-config"]):
        refused = in_image(*args, entrypoint="barrage-bot", volume=f"{host}:/data", env=env)
        lines = [line for line in refused.stderr.splitlines() if line.strip()]
        database = [line for line in lines if "database.path:" in line]
        check(
            f"an unwritable host folder: {' '.join(args) or 'start'} says so in one line",
            refused.returncode == 1
            and "Traceback" not in refused.stderr
            and len(database) == 1
            and "chown -R 10001:10001" in database[0],
            refused.stderr[-2000:],
        )
    os.chown(host, 10001, 10001)
    fixed = in_image("--check-config", entrypoint="barrage-bot", volume=f"{host}:/data", env=env)
    check(
        "the same folder after chown 10001:10001 passes --check-config",
        fixed.returncode == 0,
        fixed.stderr[-2000:],
    )


async def serve_check(workdir: Path) -> None:
    """The bot in the container answers the fake Discord, then stops cleanly on SIGTERM."""
    from fakediscord import FakeDiscord

    data = workdir / "serve-data"
    data.mkdir()
    os.chown(data, 10001, 10001)
    async with FakeDiscord() as fake:
        (data / "config.toml").write_text(
            f"[discord]\ntest_guild_id = {fake.guild.id}\n[backup]\ninterval_hours = 24\n"
        )
        os.chown(data / "config.toml", 10001, 10001)
        env = {**fake.env(), "BARRAGE_BOT_TOKEN": fake.token}
        args = [
            "podman",
            "run",
            "-d",
            "--name",
            "barrage-check",
            "--network=host",
            "-v",
            f"{data}:/data",
        ]
        for key, value in env.items():
            args += ["-e", f"{key}={value}"]
        run(["podman", "rm", "-f", "barrage-check"])
        started = run([*args, IMAGE])
        if started.returncode != 0:
            check("the bot starts in the container", False, started.stderr)
            return
        try:
            await fake.wait_connected(timeout=120)
            await fake.wait_for(
                lambda: fake.guild_commands.get(fake.guild.id), timeout=60, what="command sync"
            )
            reply = await (await fake.alice.slash("barrage help")).reply(timeout=30)
            check(
                "the bot in the container answers /barrage help", "Play your turn" in reply.content
            )
        except Exception as exc:  # reported as a failed check, with the logs
            logs = run(["podman", "logs", "barrage-check"])
            check(
                "the bot in the container answers /barrage help",
                False,
                f"{exc}\n{logs.stderr[-3000:]}",
            )
        stopped = run(["podman", "stop", "-t", "30", "barrage-check"])
        status = run(["podman", "inspect", "--format", "{{.State.ExitCode}}", "barrage-check"])
        logs = run(["podman", "logs", "barrage-check"])
        run(["podman", "rm", "-f", "barrage-check"])
        text = logs.stdout + logs.stderr
        check(
            "podman stop (SIGTERM) ends it cleanly with status 0",
            stopped.returncode == 0
            and status.stdout.strip() == "0"
            and "database closed" in text
            and "Traceback" not in text,
            text[-3000:],
        )
        check(
            "no voice warnings and no token in the logs",
            "voice will NOT be supported" not in text and fake.token not in text,
            text[-2000:],
        )
        check(
            "the database and a backup are on the volume",
            (data / "barrage.sqlite3").is_file() and any((data / "backups").iterdir()),
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rebuild-standin", action="store_true", help="make the stand-in again")
    args = parser.parse_args(argv)
    for tool in ("podman", "debootstrap"):
        if shutil.which(tool) is None:
            print(f"{tool} is not installed (apt-get install podman buildah debootstrap)")
            return 2
    build_standin(args.rebuild_standin)
    with tempfile.TemporaryDirectory(prefix="barrage-docker-check-") as tmp:
        workdir = Path(tmp)
        workdir.chmod(0o755)
        choose_engine_settings(workdir)
        if build_image():
            static_checks()
            volume_checks(workdir)
            asyncio.run(serve_check(workdir))
    passed = sum(ok for _, ok, _ in results)
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
