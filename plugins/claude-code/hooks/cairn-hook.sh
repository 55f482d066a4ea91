#!/bin/sh
# The plugin's hooks run `cairn hook EVENT` (never through npx, which could fetch another package
# named cairn): $CAIRN_BIN if set, else the Cairn checkout this plugin sits in, else `cairn` on
# PATH (npm install -g cairn-mcp). Without any, one line on stderr and nothing injected: a hook
# never breaks the session.
root="${CLAUDE_PLUGIN_ROOT:-$(dirname "$0")/..}"
if [ -n "$CAIRN_BIN" ]; then exec "$CAIRN_BIN" hook "$@"; fi
if [ -f "$root/../../bin/cairn.js" ]; then exec node "$root/../../bin/cairn.js" hook "$@"; fi
if command -v cairn >/dev/null 2>&1; then exec cairn hook "$@"; fi
echo "cairn hook $1: the cairn command was not found (npm install -g cairn-mcp, or set CAIRN_BIN); nothing injected" >&2
exit 0
