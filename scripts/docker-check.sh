#!/usr/bin/env bash
# Build and run the Docker deployment for real against a fake Telegram (no internet needed):
# a fresh clone, `docker compose up -d --build`, a conversation, `docker stop` timing, a
# Telegram that refuses connections, and a backup written into the backups volume by
# `docker compose exec bot sommelier backup` that restores into a fresh stack (`down -v`). Needs a Docker engine (../shared/docker/standins.sh sets
# one up on a machine without Docker Hub; pass its proxy as BUILD_PROXY). Not run in CI.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
proxy=${BUILD_PROXY:-}
work=$(mktemp -d /tmp/sommelier-docker-check.XXXXXX)
project=sommcheck$$
trap 'cd "$work/app" 2>/dev/null && docker compose -p "$project" down -v --remove-orphans >/dev/null 2>&1; docker rm -f "$project-faketg" >/dev/null 2>&1; rm -rf "$work"' EXIT
say() { printf '\n== %s\n' "$*"; }

git clone -q "$repo" "$work/app"
cd "$work/app"
token="123456:DOCKER-CHECK"
cat > .env <<ENV
POSTGRES_PASSWORD=check-$$-secret
TELEGRAM_BOT_TOKEN=$token
TELEGRAM_API_URL=http://faketg:8081
TELEGRAM_TIMEOUT_SECONDS=10
SHUTDOWN_GRACE_SECONDS=30
ENV

say "build (cold)"
build_args=()
[ -n "$proxy" ] && build_args=(--build-arg "HTTPS_PROXY=$proxy" --build-arg "HTTP_PROXY=$proxy")
start=$(date +%s.%N)
DOCKER_BUILDKIT=0 docker compose -p "$project" build "${build_args[@]}" -q bot
echo "built in $(echo "$(date +%s.%N) - $start" | bc) s"
image=$(docker compose -p "$project" images -q bot 2>/dev/null | head -1 || true)
docker image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep "$project" || true
echo "runs as uid $(docker compose -p "$project" run --rm --no-deps --entrypoint id bot -u)"
echo "in the image: $(docker compose -p "$project" run --rm --no-deps --entrypoint pg_dump bot --version)"
if docker save "$project-bot" | grep -a -q "check-$$-secret"; then echo "FAIL: .env in the image"; exit 1; fi
echo "no .env value in the image"

say "a README-only change rebuilds only the application layer"
echo "" >> README.md
start=$(date +%s.%N)
DOCKER_BUILDKIT=0 docker compose -p "$project" build "${build_args[@]}" -q bot
echo "rebuilt in $(echo "$(date +%s.%N) - $start" | bc) s"
git checkout -q README.md

say "compose up with a fake Telegram on the compose network"
docker compose -p "$project" up -d db
network="${project}_default"
docker run -d --name "$project-faketg" --network "$network" --network-alias faketg \
  -v "$repo/fakes:/check/fakes:ro" -v "$repo/scripts:/check/scripts:ro" -w /check \
  -e PYTHONPATH=/check --entrypoint python "$project-bot" \
  scripts/fake_telegram.py --port 8081 --token "$token" --linger 600 >/dev/null
docker compose -p "$project" up -d bot
for _ in $(seq 1 90); do
  if docker logs "$project-faketg" 2>&1 | grep -q "bot → sendMessage"; then break; fi
  sleep 2
done
docker logs "$project-faketg" 2>&1 | tail -8
for _ in $(seq 1 30); do
  status=$(docker inspect -f '{{.State.Health.Status}}' "$(docker compose -p "$project" ps -q bot)")
  [ "$status" = healthy ] && break
  sleep 2
done
echo "bot health: $status"
docker compose -p "$project" exec -T bot sommelier health || true

say "docker stop drains and exits 0"
cid=$(docker compose -p "$project" ps -q bot)
start=$(date +%s.%N)
docker stop "$cid" >/dev/null
echo "stopped in $(echo "$(date +%s.%N) - $start" | bc) s, exit code $(docker inspect -f '{{.State.ExitCode}}' "$cid")"
docker logs "$cid" 2>&1 | tail -3

say "Telegram refusing connections: retries inside the process, no restart loop"
docker rm -f "$project-faketg" >/dev/null
docker compose -p "$project" start bot >/dev/null
sleep 60
cid=$(docker compose -p "$project" ps -q bot)
echo "restarts: $(docker inspect -f '{{.RestartCount}}' "$cid"), running: $(docker inspect -f '{{.State.Running}}' "$cid")"
echo "tracebacks in the log: $(docker logs "$cid" 2>&1 | grep -c Traceback || true)"
docker logs "$cid" 2>&1 | grep -i "unreachable" | tail -3 || true
echo "health: $(docker compose -p "$project" exec -T bot sommelier health || true)"

# Rows per table (alembic_version aside), counted apart from the backup code, as "table n".
count_rows='
import asyncio, os, asyncpg
async def main():
    conn = await asyncpg.connect(os.environ["DATABASE_URL"])
    for (name,) in await conn.fetch(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
        "AND tablename <> $$alembic_version$$ ORDER BY 1"
    ):
        print(name, await conn.fetchval(f"SELECT count(*) FROM \"{name}\""))
asyncio.run(main())
'
wait_healthy_db() {
  for _ in $(seq 1 60); do
    status=$(docker inspect -f '{{.State.Health.Status}}' "$(docker compose -p "$project" ps -q db)")
    [ "$status" = healthy ] && return 0
    sleep 1
  done
  echo "FAIL: db not healthy"; exit 1
}

say "backup: docker compose exec bot sommelier backup writes into the backups volume"
docker compose -p "$project" exec -T bot sommelier backup | tee "$work/backup.out"
name=$(docker compose -p "$project" exec -T bot ls -1t /backups | head -1 | tr -d '\r')
docker compose -p "$project" exec -T bot ls -ln /backups
echo "volume: $(docker volume ls -q | grep "^${project}_backups\$")"
mkdir -p "$work/saved" && chmod 755 "$work/saved"
docker cp "$(docker compose -p "$project" ps -q bot):/backups/$name" "$work/saved/$name"
chmod 644 "$work/saved/$name"
grep -A1 '^backup written:' "$work/backup.out" | tail -1 | tr ',' '\n' | sed 's/^ *//' | grep -v '^alembic_version ' | sort > "$work/rows.backup"

say "restore into a fresh stack: down -v, up db, sommelier restore, rows counted again"
docker compose -p "$project" down -v 2>&1 | tail -2
docker compose -p "$project" up -d db 2>&1 | tail -1
wait_healthy_db
echo "volumes left: $(docker volume ls -q | grep -c "^${project}_" || true) (pgdata is new)"
docker compose -p "$project" run --rm --no-deps -T -v "$work/saved:/restore:ro" bot \
  sommelier restore "/restore/$name"
docker compose -p "$project" run --rm --no-deps -T bot python -c "$count_rows" | sort > "$work/rows.restored"
if diff "$work/rows.backup" "$work/rows.restored"; then
  echo "rows per table equal: $(tr '\n' ' ' < "$work/rows.restored")"
else
  echo "FAIL: the restored rows differ from the backup's"; exit 1
fi
say "done"
