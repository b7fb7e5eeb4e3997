#!/bin/sh
# Makes sure headless Chromium and its WebDriver (Debian packages chromium and chromium-driver) are
# installed for the console's browser tests: installs them with apt-get when missing and this runs
# as root, else fails with what to install. The tests themselves fail, never skip, without them.
set -eu

have() { command -v "$1" >/dev/null 2>&1; }

if have chromium && have chromedriver; then
  echo "[stowage] chromium and chromedriver present"
  exit 0
fi

if [ "$(id -u)" -eq 0 ] && have apt-get; then
  echo "[stowage] installing chromium and chromium-driver with apt-get for the console's browser tests"
  export DEBIAN_FRONTEND=noninteractive
  if apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null; then
    if have chromium && have chromedriver; then
      exit 0
    fi
  fi
fi

echo "[stowage] the console's browser tests need headless Chromium and chromedriver:" >&2
echo "[stowage]   Debian/Ubuntu: sudo apt-get install chromium chromium-driver" >&2
echo "[stowage]   (or put chromium and chromedriver on the PATH; CHROME_BIN/CHROMEDRIVER may name them)" >&2
exit 1
