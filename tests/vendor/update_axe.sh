#!/usr/bin/env bash
# Vendor axe-core (the accessibility checker tests/test_site_a11y.py injects into the site's pages) from the npm
# registry: its axe.min.js and its licence, into tests/vendor/axe-core/. The tests need no network, CI included.
#   tests/vendor/update_axe.sh 4.14.1      (npm view axe-core version: the newest)
set -euo pipefail
version="${1:?usage: $0 VERSION (npm view axe-core version)}"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "axe-core@$version" >/dev/null && tar xzf "axe-core-$version.tgz")
mkdir -p "$here/axe-core"
cp "$work/package/axe.min.js" "$work/package/LICENSE" "$work/package/LICENSE-3RD-PARTY.txt" "$here/axe-core/"
echo "$version" > "$here/axe-core/VERSION"
echo "axe-core $version in $here/axe-core"
