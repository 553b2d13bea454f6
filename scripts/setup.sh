#!/usr/bin/env bash
# Prepares a fresh Debian machine (Node 20+, as root or a user with sudo) for this project. Safe to run again.
#   bash scripts/setup.sh          pnpm at the version package.json pins, and the dependencies
#   bash scripts/setup.sh --test   also what the tests start: redis-server, and the Kafka
#                                  broker's jars (fetched with Maven into .cache/kafka)
set -euo pipefail
cd "$(dirname "$0")/.."

para_teste=false
for arg in "$@"; do
  case "$arg" in
    --test) para_teste=true ;;
    *) echo "uso: bash scripts/setup.sh [--test]" >&2; exit 2 ;;
  esac
done

etapa() {
  local nome=$1 inicio=$SECONDS rc=0
  shift
  echo "==> $nome"
  "$@" || rc=$?
  echo "==> $nome: $((SECONDS - inicio)) s"
  return "$rc"
}

como_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

apt_atualizado=false
apt_instalar() {
  if [ "$apt_atualizado" = false ]; then
    como_root apt-get update -q
    apt_atualizado=true
  fi
  # Do not let the packages start system-wide daemons (a redis on 6379 nobody asked for):
  # a policy-rc.d that denies every start, only for this install, unless one already exists.
  local politica=/usr/sbin/policy-rc.d criada=false
  if [ ! -e "$politica" ]; then
    printf '#!/bin/sh\nexit 101\n' | como_root tee "$politica" >/dev/null
    como_root chmod +x "$politica"
    criada=true
  fi
  local rc=0
  como_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" || rc=$?
  if [ "$criada" = true ]; then como_root rm -f "$politica"; fi
  return "$rc"
}

# The lines package.json's engines name (ESLint 10 needs 22.13 on the 22 line).
node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit((a === 20 && b >= 19) || (a === 22 && b >= 13) || a >= 24 ? 0 : 1)' \
  || { echo "Node $(node --version) não serve: é preciso Node 20.19+, 22.13+ ou 24+" >&2; exit 1; }

versao_pnpm=$(node -p 'require("./package.json").packageManager.split("@")[1]')
instalar_pnpm() {
  if [ "$(pnpm --version 2>/dev/null || true)" != "$versao_pnpm" ]; then
    # Debian packages npm apart from its Node.
    command -v npm >/dev/null 2>&1 || apt_instalar npm
    # npm rather than corepack: corepack cannot verify the registry's signatures on these machines.
    # With sudo when npm's global folder is not the user's (Debian's Node: /usr/local).
    if [ -w "$(npm prefix -g)" ]; then npm install -g "pnpm@$versao_pnpm"; else como_root npm install -g "pnpm@$versao_pnpm"; fi
  fi
  pnpm --version
}
etapa "pnpm $versao_pnpm" instalar_pnpm

# On Node 20, better-sqlite3 12 compiles its addon on install (decision 0012), with python3, make
# and g++: installed when one is missing (these machines have them).
instalar_compiladores() {
  local faltam=()
  for programa in python3 make g++; do command -v "$programa" >/dev/null 2>&1 || faltam+=("$programa"); done
  if [ "${#faltam[@]}" -eq 0 ]; then echo "python3, make e g++: presentes"; return 0; fi
  apt_instalar python3 make g++
}
if [ "$(node -p 'process.versions.node.split(".")[0]')" = 20 ]; then etapa "compiladores do SQLite (Node 20)" instalar_compiladores; fi

# Debian's Node ships its headers in /usr/include/node, which spares node-gyp a download from
# nodejs.org: used only when that Node is the one running, since headers of another version would
# build an addon it can't load.
if [ -z "${npm_config_nodedir:-}" ] && [ -f /usr/include/node/node.h ] \
  && [ "$(node -p process.execPath)" = /usr/bin/node ]; then
  export npm_config_nodedir=/usr
fi
etapa "dependências (pnpm install)" pnpm install --frozen-lockfile
etapa "SQLite" pnpm exec tsx scripts/sqlite-carrega.ts

if [ "$para_teste" = true ]; then
  instalar_redis() {
    if command -v redis-server >/dev/null 2>&1; then redis-server --version; return 0; fi
    apt_instalar redis-server
  }
  etapa "redis-server" instalar_redis

  instalar_java_maven() {
    local faltam=()
    # Java 17 where the distribution has it (Debian 12, Ubuntu 22.04), else its default (Debian 13: 21).
    local jre=default-jre-headless
    if apt-cache show openjdk-17-jre-headless >/dev/null 2>&1; then jre=openjdk-17-jre-headless; fi
    command -v java >/dev/null 2>&1 || faltam+=("$jre")
    command -v mvn >/dev/null 2>&1 || faltam+=(maven)
    if [ "${#faltam[@]}" -gt 0 ]; then apt_instalar "${faltam[@]}"; fi
    java -version 2>&1 | head -n 1
    # Kafka 4 runs on Java 17 or later: an older java already on the PATH would fail at the broker's start.
    local maior
    maior=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
    if [ "${maior%%.*}" -lt 17 ] 2>/dev/null; then echo "Java $maior não serve: o broker Kafka 4 precisa de Java 17 ou mais novo (JAVA_HOME ou o PATH)" >&2; return 1; fi
  }
  etapa "Java e Maven" instalar_java_maven

  etapa "jars do broker Kafka" pnpm infra:fetch
fi
