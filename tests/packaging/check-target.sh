#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A target environment with another torch, end to end (CTest target_builds_for_other_torch, label
# `target`, outside every default tier: README "Test tiers"):
#  1. aotstudio-cli target add NAME --torch 2.11.0 --python 3.11: a venv with torch 2.11.0 from
#     PyPI (the CUDA build: about 2.6 GB of downloads, 5 GB installed) and the engine built against
#     it in build/targets/NAME (tools/build-wheel.sh);
#  2. aotstudio-cli export --target NAME --model sample:mlp: the bundle's manifest `compat` names
#     torch 2.11 (its key starts torch2.11-);
#  3. the main build's aotstudio-run refuses that bundle: exit 1, --json code `incompatible`;
#  4. target list shows it, --version --target says its torch and names it (the engine's hello),
#     target remove removes it, leaving nothing.
# Needs the network (PyPI) unless pip's cache holds torch 2.11.0 and its dependencies.
#
# Usage: check-target.sh BUILD_DIR WORK_DIR [TORCH]   (BUILD_DIR: the build with aotstudio-cli and
#   aotstudio-run; TORCH default 2.11.0)
set -euo pipefail
build=$1
work=$2
torch=${3:-2.11.0}
name=ctest-t${torch//./}
cli=$build/bin/aotstudio-cli
run=$build/bin/aotstudio-run
export AOTSTUDIO_TARGETS_DIR=$work/targets
say() { printf '[check-target] %s\n' "$*" >&2; }
fail() { say "FAILED: $*"; exit 1; }
start=$SECONDS
mkdir -p "$work"
rm -rf "$work/bundle" "$work/bundle.zip"
"$cli" target remove "$name" >/dev/null 2>&1 || true

t0=$SECONDS
"$cli" target add "$name" --torch "$torch" --python 3.11 --json > "$work/add.json" || fail "target add (see above)"
say "target add: $((SECONDS - t0)) s ($(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["result"]; print("torch", r["torch"], "timings", r.get("timings"), "engine start", r.get("engine_start_s"), "s")' "$work/add.json"))"
"$cli" target list --json | python3 -c '
import json, sys
names = [t["name"] for t in json.load(sys.stdin)["result"]["targets"]]
sys.exit(0 if sys.argv[1] in names else "target list does not show %s: %s" % (sys.argv[1], names))' "$name"

"$cli" --version --json --target "$name" > "$work/version.json" || fail "--version --target $name"
python3 - "$work/version.json" "$torch" "$name" <<'EOF'
import json, sys
hello = json.load(open(sys.argv[1]))["result"]
want, name = sys.argv[2], sys.argv[3]
assert hello["torch_version"].startswith(want), "--version --target says torch %s" % hello["torch_version"]
assert hello.get("target") == name, "the hello names target %s, not %s" % (hello.get("target"), name)
EOF

t0=$SECONDS
"$cli" export --target "$name" --model sample:mlp --device cpu --out "$work/bundle" --cold-start-runs 1 --json \
    > "$work/export.json" || fail "export --target $name (see above)"
say "export --target: $((SECONDS - t0)) s"
python3 - "$work/bundle/manifest.json" "$torch" <<'EOF'
import json, sys
compat = json.load(open(sys.argv[1]))["compat"]
want = ".".join(sys.argv[2].split(".")[:2])
assert compat["torch"].startswith(want + "."), f"manifest compat.torch is {compat['torch']}, not {want}"
assert compat["key"].startswith(f"torch{want}-"), f"the key {compat['key']} does not name torch {want}"
print(f"[check-target] compat key {compat['key']} (torch {compat['torch']})", file=sys.stderr)
EOF

rc=0
"$run" "$work/bundle" --json > "$work/run.json" 2> "$work/run.err" || rc=$?
[ "$rc" = 1 ] || fail "aotstudio-run of the torch $torch bundle exited $rc, not 1"
python3 - "$work/run.json" <<'EOF'
import json, sys
error = json.load(open(sys.argv[1]))["error"]
assert error["code"] == "incompatible", f"aotstudio-run said {error}"
print(f"[check-target] aotstudio-run refused it: {error['message']}", file=sys.stderr)
EOF

"$cli" target remove "$name" >/dev/null
[ -z "$(ls -A "$AOTSTUDIO_TARGETS_DIR")" ] || fail "target remove left $(ls -A "$AOTSTUDIO_TARGETS_DIR")"
say "passed in $((SECONDS - start)) s"
