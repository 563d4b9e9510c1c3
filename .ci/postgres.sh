#!/usr/bin/env bash
# shellcheck shell=bash
# Makes a PostgreSQL server available on loopback for the server tests and
# exports its URL in EPAMINONDAS_TEST_POSTGRES.
#
# Usage (from the repository root, as .ci/run does):
#   source .ci/postgres.sh
# It can also be run as `bash .ci/postgres.sh`; it then only prints the URL,
# since a child process cannot export into its parent.
#
# What it does:
#   * If EPAMINONDAS_TEST_POSTGRES is already set and that server answers
#     pg_isready, it is left alone (e.g. a developer's own server on 5432).
#   * Otherwise it installs Debian's `postgresql` package when no server
#     binaries are present (root only), then starts a private throwaway
#     cluster in /tmp/epaminondas-pg on 127.0.0.1:55432 (trust auth,
#     fsync off), independent of any Debian-managed cluster, replacing the
#     one a previous run left behind.
#   * The tests CREATE DATABASE per test, so the URL names the superuser
#     `postgres`.
#
# Stop the throwaway server with:
#   runuser -u postgres -- /usr/lib/postgresql/*/bin/pg_ctl -D /tmp/epaminondas-pg stop
#
# Everything lives in one function so that sourcing it with the caller's
# `set -euo pipefail` neither exits the caller on success nor leaks variables.

_epaminondas_pg_setup() {
  local dir=/tmp/epaminondas-pg
  local port=55432
  local url="postgres://postgres@127.0.0.1:${port}/postgres"
  local bindir="" initdb_path="" log

  _pg_say() { printf 'postgres.sh: %s\n' "$*"; }
  _pg_err() { printf 'postgres.sh: error: %s\n' "$*" >&2; }

  # 1. Already have a working server named by the environment?
  if [ -n "${EPAMINONDAS_TEST_POSTGRES:-}" ] && command -v pg_isready >/dev/null 2>&1 &&
    pg_isready -q -d "$EPAMINONDAS_TEST_POSTGRES" >/dev/null 2>&1; then
    _pg_say "EPAMINONDAS_TEST_POSTGRES is set and answers; using it as is"
    export EPAMINONDAS_TEST_POSTGRES
    return 0
  fi

  # 2. Server binaries (the newest installed major version).
  _pg_find_initdb() {
    local f
    # Newest version last; no pipefail surprises: ls failing just yields "".
    f=$(ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1 || true)
    printf '%s' "$f"
  }
  initdb_path=$(_pg_find_initdb)
  if [ -z "$initdb_path" ]; then
    if [ "$(id -u)" -ne 0 ]; then
      _pg_err "no PostgreSQL server binaries (/usr/lib/postgresql/*/bin/initdb) and not root to install them"
      return 1
    fi
    _pg_say "installing Debian's postgresql package"
    if ! apt-get update -q; then
      _pg_err "apt-get update failed"
      return 1
    fi
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql; then
      _pg_err "apt-get install postgresql failed"
      return 1
    fi
    initdb_path=$(_pg_find_initdb)
    if [ -z "$initdb_path" ]; then
      _pg_err "postgresql installed but no /usr/lib/postgresql/*/bin/initdb found"
      return 1
    fi
  fi
  bindir=$(dirname "$initdb_path")
  _pg_say "using server binaries in $bindir ($("$bindir/postgres" --version 2>/dev/null || echo 'version unknown'))"

  # 3. The OS user that owns the cluster: postgres when root (the server
  #    refuses to run as root), otherwise whoever runs this.
  _pg_as() {
    # Run a command as the cluster's owner, from a directory it can read.
    if [ "$(id -u)" -eq 0 ]; then
      if command -v runuser >/dev/null 2>&1; then
        (cd / && runuser -u postgres -- "$@")
      else
        local q
        q=$(printf '%q ' "$@")
        (cd / && su postgres -s /bin/sh -c "$q")
      fi
    else
      (cd / && "$@")
    fi
  }
  if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
    _pg_say "creating the postgres OS user"
    if ! useradd --system --user-group --home-dir /var/lib/postgresql --shell /bin/bash postgres; then
      _pg_err "could not create the postgres OS user"
      return 1
    fi
  fi

  # 4. Stop and remove a cluster left by an earlier run.
  if [ -e "$dir/postmaster.pid" ]; then
    _pg_say "stopping the old throwaway cluster in $dir"
    _pg_as "$bindir/pg_ctl" -D "$dir" -m fast -w stop >/dev/null 2>&1 || true
  fi
  if ! rm -rf "$dir"; then
    _pg_err "cannot remove the old $dir"
    return 1
  fi
  if "$bindir/pg_isready" -q -h 127.0.0.1 -p "$port" >/dev/null 2>&1; then
    _pg_err "something else already listens on 127.0.0.1:$port; stop it and retry"
    return 1
  fi

  # 5. Fresh cluster.
  if ! mkdir -p "$dir" || ! chmod 700 "$dir"; then
    _pg_err "cannot create $dir"
    return 1
  fi
  if [ "$(id -u)" -eq 0 ] && ! chown postgres: "$dir"; then
    _pg_err "cannot give $dir to the postgres OS user"
    return 1
  fi
  log="$dir/log"
  _pg_say "initdb $dir"
  if ! _pg_as "$bindir/initdb" -D "$dir" --auth=trust -U postgres -E UTF8 --locale=C >"/tmp/epaminondas-pg-initdb.log" 2>&1; then
    _pg_err "initdb failed:"
    cat /tmp/epaminondas-pg-initdb.log >&2 || true
    return 1
  fi

  # 6. Start it on loopback only, socket in /tmp, tuned for throwaway tests.
  _pg_say "starting the server on 127.0.0.1:$port (log: $log)"
  if ! _pg_as "$bindir/pg_ctl" -D "$dir" \
    -o "-p $port -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
    -l "$log" -w -t 60 start; then
    _pg_err "the server did not start; its log follows:"
    cat "$log" >&2 || true
    return 1
  fi
  if ! "$bindir/pg_isready" -h 127.0.0.1 -p "$port"; then
    _pg_err "the server started but does not answer on 127.0.0.1:$port; its log follows:"
    cat "$log" >&2 || true
    return 1
  fi
  if ! "$bindir/psql" -X -q -v ON_ERROR_STOP=1 "$url" -c 'select 1' >/dev/null; then
    _pg_err "cannot connect to $url; the server log follows:"
    cat "$log" >&2 || true
    return 1
  fi

  export EPAMINONDAS_TEST_POSTGRES="$url"
  _pg_say "ready: EPAMINONDAS_TEST_POSTGRES=$EPAMINONDAS_TEST_POSTGRES"
  return 0
}

# Run it; clean up the helpers; return when sourced, exit when executed.
if _epaminondas_pg_setup; then _epaminondas_pg_rc=0; else _epaminondas_pg_rc=$?; fi
unset -f _epaminondas_pg_setup _pg_say _pg_err _pg_find_initdb _pg_as 2>/dev/null || true
if [ "${BASH_SOURCE[0]}" != "$0" ]; then
  if [ "$_epaminondas_pg_rc" -eq 0 ]; then
    unset _epaminondas_pg_rc
    return 0
  fi
  unset _epaminondas_pg_rc
  return 1
else
  exit "$_epaminondas_pg_rc"
fi
