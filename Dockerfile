# barrage-bot in a container: the same entry point as `barrage-bot`, data on a volume.
#   docker build -t barrage-bot .
#   docker run -d --name barrage-bot -e BARRAGE_BOT_TOKEN=... -v barrage-data:/data barrage-bot
# Debian 12 (bookworm), whose SQLite (3.40) has everything the store uses.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_CONSTRAINT=/app/constraints.txt

WORKDIR /app
# Exact versions from constraints.txt, as in the README and CI (PIP_CONSTRAINT also pins
# the build back-end in pip's isolated build environment).
COPY constraints.txt pyproject.toml README.md ./
COPY bot ./bot
COPY renderer ./renderer
RUN pip install /app

# Run as an unprivileged user whose home, and working directory, is the data volume:
# the default database (barrage.sqlite3), backups/ and an optional config.toml live there.
RUN useradd --system --uid 10001 --user-group --home-dir /data --no-create-home barrage \
    && mkdir -p /data \
    && chown barrage:barrage /data
USER barrage
WORKDIR /data
VOLUME ["/data"]

# SIGTERM from `docker stop` shuts the bot down cleanly.
STOPSIGNAL SIGTERM
ENTRYPOINT ["barrage-bot"]
