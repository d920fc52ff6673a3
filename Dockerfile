# The chat bots in a container: `docker build -t belote-bot .` (docs/hosting.md, "Container").
# With PostgreSQL beside it: compose.yaml.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# What the package is built from (the same list as tests/test_packaging.py's SOURCES), installed, then removed.
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY bot ./bot
COPY locales ./locales
RUN pip install . && rm -rf /src

# The bot never needs root: its own user, whose data folder holds the SQLite file when no PostgreSQL URL is given
# (mount a volume at /home/belote/.local/share/belote-bot to keep it).
RUN useradd --create-home --uid 10001 belote
USER belote
WORKDIR /home/belote

# /healthz, /readyz and /metrics (bot/ops/health.py), on every address of the container so that the platform and a
# Prometheus server can reach them.
ENV BELOTE_HEALTH_PORT=8080 \
    BELOTE_HEALTH_LISTEN=0.0.0.0
EXPOSE 8080

# Ready: this process holds the lease, its database answers and a chat adapter is connected. A standby (a second
# container for the same bot) reports unhealthy on purpose: it serves nothing until it takes over.
HEALTHCHECK --interval=15s --timeout=6s --start-period=30s --retries=3 CMD ["python", "-m", "bot.ops.probe"]

# SIGTERM (docker stop) ends it cleanly: the adapters deliver what is queued and the lease is released at once.
STOPSIGNAL SIGTERM
CMD ["belote-bot", "run"]
