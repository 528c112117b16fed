# barrage-bot in a container: the same entry point as `barrage-bot`, data on a volume.
#   docker build -t barrage-bot .
#   docker run -d --name barrage-bot --restart unless-stopped --stop-timeout 40 \
#       -e BARRAGE_BOT_TOKEN=... -v barrage-data:/data barrage-bot
# The README's "Docker" section shows the console, --check-config and the logs.
# Debian 12 (bookworm), whose SQLite (3.40) has everything the store uses.
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

# -- build: install the bot and its pinned dependencies into a virtual environment ------
FROM ${PYTHON_IMAGE} AS build

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_CONSTRAINT=/src/constraints.txt

WORKDIR /src
# Exact versions from constraints.txt, as in the README and CI (PIP_CONSTRAINT also pins
# the build back-end in pip's isolated build environment).
COPY constraints.txt pyproject.toml README.md ./
COPY bot ./bot
COPY renderer ./renderer
RUN python -m venv /opt/barrage-bot && /opt/barrage-bot/bin/pip install /src

# -- run: the environment only; no source tree, build files or pip cache -----------------
FROM ${PYTHON_IMAGE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PATH=/opt/barrage-bot/bin:$PATH

COPY --from=build /opt/barrage-bot /opt/barrage-bot

# An unprivileged user and group, both 10001, whose home and working directory is the data
# volume: the default database (barrage.sqlite3), backups/, an optional config.toml and the
# console's game (barrage-console.sqlite3) live there. A host folder mounted at /data must be
# writable by 10001:10001 (`chown -R 10001:10001 FOLDER` on the host).
RUN groupadd --system --gid 10001 barrage \
    && useradd --system --uid 10001 --gid 10001 --home-dir /data --no-create-home \
        --shell /usr/sbin/nologin barrage \
    && mkdir -p /data \
    && chown 10001:10001 /data
USER 10001:10001
WORKDIR /data
VOLUME ["/data"]

# SIGTERM from `docker stop` shuts the bot down cleanly.
STOPSIGNAL SIGTERM
# `docker run IMAGE` runs the bot; `docker run IMAGE --check-config` checks the settings and
# the folders; `docker run -it IMAGE console --players 2` plays in the terminal.
ENTRYPOINT ["barrage-bot"]
