#!/usr/bin/env bash
# CI: installs Debian's Chromium for the interface preview tests (weir never downloads a browser).
# Does nothing when /usr/bin/chromium (or $WEIR_CHROMIUM) is already there.
set -euo pipefail
if [ -n "${WEIR_CHROMIUM:-}" ] && [ -x "$WEIR_CHROMIUM" ]; then exit 0; fi
if [ -x /usr/bin/chromium ]; then exit 0; fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends chromium fonts-liberation
/usr/bin/chromium --version
