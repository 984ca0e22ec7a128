#!/usr/bin/env bash
# Copy KaTeX (the npm registry's package) into docs/javascripts/katex/: the documentation site renders its formulas
# with it, from its own files, so the site works offline. Only what a browser uses: the minified script and style, the
# auto-render extension, the WOFF2 fonts (every browser KaTeX supports reads WOFF2 first) and the licence.
# Usage: bash scripts/vendor_katex.sh [VERSION]
set -euo pipefail
cd "$(dirname "$0")/.."
version="${1:-0.19.1}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "katex@$version" >/dev/null && tar xzf "katex-$version.tgz")
target=docs/javascripts/katex
rm -rf "$target"
mkdir -p "$target/contrib" "$target/fonts"
cp "$work/package/dist/katex.min.js" "$work/package/dist/katex.min.css" "$work/package/LICENSE" "$target/"
cp "$work/package/dist/contrib/auto-render.min.js" "$target/contrib/"
cp "$work/package/dist/fonts/"*.woff2 "$target/fonts/"
echo "$version" > "$target/VERSION"
