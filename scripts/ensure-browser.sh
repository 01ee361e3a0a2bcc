#!/usr/bin/env bash
# The browser tests drive Debian's Chromium and its driver (tests/browser.py). `make test` and
# `.ci/run` call this first: nothing happens when both are on PATH; otherwise it installs
# Debian's `chromium` and `chromium-driver` with apt-get — as root, or through `sudo -n` (never
# a password prompt) — and when it cannot, it says in one line what to install and fails.
set -euo pipefail

packages="chromium chromium-driver"
have() { command -v "$1" >/dev/null 2>&1; }
present() { { have chromium || have chromium-browser; } && have chromedriver; }
cannot() {
    echo "make test: the browser tests need Chromium and its driver; install them as root with: apt-get install $packages ($1)" >&2
    exit 1
}

present && exit 0

have apt-get || cannot "no apt-get here: use this system's chromium and chromedriver packages"
if [ "$(id -u)" = 0 ]; then
    as_root=()
elif have sudo && sudo -n true >/dev/null 2>&1; then
    as_root=(sudo -n)
else
    cannot "not root, and sudo -n is not allowed"
fi

echo "Installing $packages for the browser tests (apt-get)..." >&2
log=$(mktemp "${TMPDIR:-/tmp}/ensure-browser.XXXXXX")
if ! {
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
        "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $packages
} >"$log" 2>&1; then
    cannot "apt-get failed, its output: $log"
fi
rm -f "$log"
present || cannot "apt-get ran, yet chromium or chromedriver is not on PATH"
