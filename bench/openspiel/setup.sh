#!/usr/bin/env bash
# Creates .venv-openspiel at the repository root with open_spiel 2.0.2, the
# OpenSpiel release qipai's Dou Dizhu figures are compared against.
# Idempotent: an existing venv is reused and pip only runs when the installed
# version differs. PyPI ships a manylinux wheel for CPython 3.11 (no build).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="$root/.venv-openspiel"
version="2.0.2"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
installed="$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("open_spiel"))' 2>/dev/null || true)"
if [ "$installed" != "$version" ]; then
    "$venv/bin/pip" install --quiet "open_spiel==$version"
fi
"$venv/bin/python" -c 'import pyspiel; pyspiel.load_game("dou_dizhu")'
echo "open_spiel $version ready in $venv"
