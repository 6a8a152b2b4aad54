#!/usr/bin/env bash
# Builds www/dist: a page with the validation report of the bundled example catalog, made by the
# release CLI (the interactive site replaces this page in a later issue).
set -euo pipefail
cd "$(dirname "$0")/.."
out=www/dist
mkdir -p "$out"
bin=target/release/olm-catalog
example=www/examples/community
status=0
report=$("$bin" validate "$example") || status=$?
json=$("$bin" validate --format json "$example") || true
if [ "$status" -gt 1 ]; then
  echo "build-site: olm-catalog failed with exit code $status" >&2
  exit 1
fi
broken=www/examples/broken
broken_report=$("$bin" validate "$broken") || true
escape() { python3 -c 'import html,sys; print(html.escape(sys.stdin.read()), end="")'; }
{
  cat <<HTML
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>olm-catalog: example report</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2rem; max-width: 70rem; }
pre { background: #f4f4f4; padding: 1rem; overflow-x: auto; }
</style>
</head>
<body>
<h1>olm-catalog</h1>
<p>Validation report of the bundled example catalog <code>$example</code>
(four packages from the community operators catalog for OpenShift 4.20), produced by
<code>olm-catalog validate</code>.</p>
<h2>Text report</h2>
<pre id="report">$(printf '%s' "$report" | escape)</pre>
<h2>A catalog with mistakes</h2>
<p><code>$broken</code> has deliberate mistakes; every one is reported with its file, line and
column:</p>
<pre id="broken">$(printf '%s' "$broken_report" | escape)</pre>
<h2>JSON report of the example catalog</h2>
<pre id="json">$(printf '%s' "$json" | escape)</pre>
</body>
</html>
HTML
} > "$out/index.html"
echo "build-site: wrote $out/index.html"
