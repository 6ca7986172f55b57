#!/usr/bin/env bash
# Installs the Python package's test dependencies (clients/python/requirements/
# NAME.txt, exact versions with hashes, from PyPI) into one venv per lock,
# /var/cache/idgen/python/NAME-HASH/ (HASH: the lock's sha256), made with the
# machine's /usr/bin/python3 (Debian's python3 and python3-venv), and links
# /var/cache/idgen/python/NAME to it. Called by test/setup.sh; does nothing for
# a lock whose venv exists. pip's downloads are kept in /var/cache/idgen/pip.
# pip's own configuration (a find-links directory, say) is not read: PyPI,
# through pip's index setting of the environment if one is set, is the source.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=${IDGEN_PYTHON_VENVS:-/var/cache/idgen/python}
mkdir -p "$root"
for name in latest oldest; do
    lock="$here/requirements/$name.txt"
    hash=$(sha256sum "$lock" | cut -c1-16)
    venv="$root/$name-$hash"
    if [[ ! -x $venv/bin/python || ! -e $venv/.idgen-installed ]]; then
        echo "setup: Python venv $venv from $lock"
        rm -rf "$venv"
        /usr/bin/python3 -m venv "$venv"
        PIP_CONFIG_FILE=/dev/null PIP_FIND_LINKS= PIP_CACHE_DIR=${IDGEN_PIP_CACHE:-/var/cache/idgen/pip} \
            "$venv/bin/pip" install -q --disable-pip-version-check --no-deps --require-hashes \
            -r "$lock" >&2
        touch "$venv/.idgen-installed"
    fi
    ln -sfn "$venv" "$root/$name"
    for old in "$root/$name"-*; do  # venvs of earlier locks
        [[ $old == "$venv" ]] || rm -rf "$old"
    done
done
