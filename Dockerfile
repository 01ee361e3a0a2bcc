FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    LOG_FORMAT=json

# Dependencies in their own layer, keyed on the lock file only (`make lock` renews it). The
# image talks to an external PostgreSQL, so the lock leaves out the embedded server's wheel.
COPY requirements.lock /tmp/requirements.lock
RUN pip install --no-deps -r /tmp/requirements.lock && rm /tmp/requirements.lock

# The application: a regular install into site-packages, owned by root and read-only to the
# user it runs as; .dockerignore keeps .env, .git, tests and local virtualenvs out.
COPY . /tmp/src
RUN pip install --no-deps /tmp/src && rm -rf /tmp/src \
    && useradd --uid 10001 --no-create-home --shell /usr/sbin/nologin sommelier
USER sommelier
WORKDIR /tmp

# `sommelier bot` is PID 1 (exec form), so SIGTERM reaches it and answers in flight drain.
# It migrates at start (once; several replicas take turns) and retries an unreachable Telegram
# inside the process. Polling needs no port; webhook mode listens on HTTP_PORT (8080).
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 CMD ["sommelier", "health"]
CMD ["sommelier", "bot"]
