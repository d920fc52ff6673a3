#!/bin/sh
# make test's tools from Debian's packages: debian_tool.sh COMMAND PACKAGE PURPOSE
# Nothing to do when COMMAND is on the PATH; as root on Debian or Ubuntu, installs PACKAGE (from the package cache,
# else after apt-get update); otherwise says what to install and fails, so that make test stops.
command="$1" package="$2" purpose="$3"
command -v "$command" >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing $command for $purpose: apt-get install $package"
  install="apt-get install -y -qq --no-install-recommends $package"
  if ! DEBIAN_FRONTEND=noninteractive $install >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive $install >/dev/null || {
      echo "apt-get could not install $package (see above); install it by hand, then run make test again." >&2
      exit 1
    }
  fi
else
  echo "make test needs $command (Debian's $package): install it, then run make test again." >&2
  exit 1
fi
