#!/usr/bin/env bash
# Installs the system packages StateLoop needs when they are missing: libyaml (the YAML parser the
# generator is built on, pkg-config yaml-0.1), SQLite (the journal store of StateLoopDurable,
# pkg-config sqlite3), pkg-config, Graphviz (`dot`, for SVG/PNG diagrams), and on Debian Chromium
# and its WebDriver (`chromium`, `chromedriver`: the inspector's browser tests, Docs/Inspector.md).
set -euo pipefail

missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
pkg-config --exists yaml-0.1 2>/dev/null || missing+=(libyaml-dev)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
command -v dot >/dev/null 2>&1 || missing+=(graphviz)
if command -v apt-get >/dev/null 2>&1; then
    command -v chromium >/dev/null 2>&1 || missing+=(chromium)
    command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
fi
# Packages a caller needs besides, named by their command (bench.sh: valgrind, on Linux).
for extra in "$@"; do command -v "$extra" >/dev/null 2>&1 || missing+=("$extra"); done
[ ${#missing[@]} -eq 0 ] && exit 0

if command -v apt-get >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "Installing ${missing[*]} (apt-get)..."
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
elif command -v brew >/dev/null 2>&1; then
    brew install libyaml sqlite graphviz pkg-config
else
    echo "error: please install ${missing[*]} (Debian/Ubuntu: apt-get install libyaml-dev libsqlite3-dev graphviz pkg-config; macOS: brew install libyaml sqlite graphviz)" >&2
    exit 2
fi
