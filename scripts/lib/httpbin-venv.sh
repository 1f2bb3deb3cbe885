# Sourced by scripts/test and scripts/soak: creates (once) and updates .build/httpbin-venv with the pinned httpbin
# server (scripts/requirements-httpbin.txt, gunicorn included) and the pinned JSON Schema validator
# (scripts/requirements-schema.txt), checks it with `pip check`, and exports NETTAP_HTTPBIN_PYTHON.
# Needs $repo set to the repository root. Installs python3-venv with apt-get when venv is missing and we are root.
ensure_httpbin_venv() {
  venv="$repo/.build/httpbin-venv"
  requirements="$repo/scripts/requirements-httpbin.txt"
  python="${PYTHON:-python3}"
  if ! "$venv/bin/python" -c 'import sys' >/dev/null 2>&1; then
    rm -rf "$venv"
    mkdir -p "$repo/.build"
    if ! "$python" -m venv "$venv" 2>/dev/null; then
      # Debian ships venv/ensurepip separately.
      if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "python3 -m venv failed; installing python3-venv"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv python3-pip >/dev/null
        rm -rf "$venv"
        "$python" -m venv "$venv"
      else
        echo "${0##*/}: '$python -m venv' failed; install python3-venv" >&2
        exit 1
      fi
    fi
  fi
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -r "$requirements" \
    -r "$repo/scripts/requirements-schema.txt"
  "$venv/bin/python" -m pip check --disable-pip-version-check
  export NETTAP_HTTPBIN_PYTHON="$venv/bin/python"
}
