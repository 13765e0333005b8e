# Sourced by the scripts that need Debian packages or the Python sender library (install-deps,
# test-brokers, bench-push-scale, test-python-sender), so each states what it needs and none
# copies how it is installed. Not run on its own.

# Installs, with apt-get --no-install-recommends, those of the named Debian packages that are
# not installed yet (sudo when not root; waits up to 10 minutes for the dpkg lock).
install_missing_packages() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -qE "install ok (installed|triggers-pending|triggers-awaited)" \
      || missing+=("$p")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  echo "Installing: ${missing[*]}"
  local apt=(apt-get -o DPkg::Lock::Timeout=600 -qq)
  [ "$(id -u)" -ne 0 ] && apt=(sudo "${apt[@]}")
  "${apt[@]}" update
  DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y --no-install-recommends "${missing[@]}"
}

# The packages the Python sender library and its tests need (a venv, Debian's pip to install
# into it, paho-mqtt, pytest).
python_sender_packages=(python3 python3-venv python3-pip python3-paho-mqtt python3-pytest python3-setuptools)

# Installs the Python sender library (clients/python of checkout $1) with pip into a throw-away
# venv (system site packages give it Debian's paho-mqtt and pytest; nothing is downloaded, the
# system Python is untouched), sets `sender_venv` to its directory, and removes it at exit.
# The venv gets no pip of its own (copying one in cost 3.6 s of CPU per test run): Debian's pip,
# seen through the system site packages, installs into it.
make_sender_venv() {
  sender_venv=$(mktemp -d)
  trap 'rm -rf "$sender_venv"' EXIT
  /usr/bin/python3 -m venv --without-pip --system-site-packages "$sender_venv"
  "$sender_venv/bin/python" -m pip install --quiet --no-deps --no-build-isolation --no-index "$1/clients/python"
}
