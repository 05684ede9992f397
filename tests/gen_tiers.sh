#!/bin/sh
# movconf gen's tiers (generators/README.md, "Tiers"): a tier group's file
# goes to OUT-large/<op>/, outside OUT/; only a tier group may raise the
# input and output bounds, and only up to the loader's and runner's
# defaults; a case above its group's bound is refused, naming the bound;
# gen --help says so.
# usage: gen_tiers.sh MOVCONF WORK_DIR
set -u
movconf=$1 work=$2
fail() {
  echo "FAILED: $*"
  exit 1
}
rm -rf "$work"
mkdir -p "$work/gen" || fail "cannot create $work"
# describe GROUP_JSON: a BatchToSpace description with a small default group and GROUP_JSON
describe() {
  cat >"$work/gen/batch_to_space_2.json" <<JSON
{
  "format": "movconf-gen/1", "op": "BatchToSpace-2", "description": "gen_tiers.sh",
  "expected_inline_bytes": 64, "expected_max_values": 16,
  "groups": [
    {"group": "small", "kind": "valid", "about": "a default group.", "seed": 1,
     "set": {"spatial": [2, 2], "block": 2}},
    $1
  ]
}
JSON
}
# gen_fails EXPECTED_MESSAGE: gen must exit 1 and say so
gen_fails() {
  "$movconf" gen --op b2s --generators "$work/gen" --out "$work/out" >"$work/log" 2>&1
  status=$?
  [ "$status" -eq 1 ] || { cat "$work/log"; fail "gen exited with $status, not 1 ($1)"; }
  grep -q "$1" "$work/log" || { cat "$work/log"; fail "no message '$1'"; }
}

big='"spatial": [64, 64], "block": 2, "sub_batch": 80'
describe '{"group": "big", "kind": "valid", "about": "x", "seed": 2, "set": {'"$big"'}, "max_output_bytes": 8388609}'
gen_fails "'max_output_bytes' must be an integer in 1..8388608"
describe '{"group": "big", "kind": "valid", "about": "x", "seed": 2, "set": {'"$big"'}, "max_input_bytes": 8388609}'
gen_fails "'max_input_bytes' must be an integer in 1..8388608"
describe '{"group": "big", "kind": "valid", "about": "x", "seed": 2, "tier": "huge", "set": {'"$big"'}}'
gen_fails "tier 'huge' is not one of: large"
describe '{"group": "big", "kind": "valid", "about": "x", "seed": 2, "tier": "large", "set": {'"$big"'}, "max_output_bytes": 1073741825}'
gen_fails "'max_output_bytes' must be an integer in 1..1073741824"
describe '{"group": "big", "kind": "valid", "about": "x", "seed": 2, "tier": "large", "set": {'"$big"'}}'
gen_fails "at most 1048576 bytes"
describe '{"group": "big", "kind": "valid", "about": "x", "seed": 2, "tier": "large", "set": {'"$big"'}, "max_input_bytes": 2097152}'
gen_fails "above the group's max_output_bytes"

# Within its bounds the tier group is written beside OUT, not inside it.
describe '{"group": "big", "kind": "valid", "about": "x", "seed": 2, "tier": "large", "set": {'"$big"'}, "max_input_bytes": 2097152, "max_output_bytes": 2097152}'
"$movconf" gen --op b2s --generators "$work/gen" --out "$work/out" >"$work/log" 2>&1 ||
  { cat "$work/log"; fail "gen of a tier group within its bounds"; }
[ -f "$work/out/batch_to_space_2/generated/small.json" ] || fail "the default group's file is missing"
[ -f "$work/out-large/batch_to_space_2/big.json" ] || fail "the tier group's file is not in OUT-large/<op>/"
[ ! -e "$work/out/batch_to_space_2/generated/big.json" ] || fail "the tier group's file is in OUT"
"$movconf" run "$work/out-large" >"$work/run.log" 2>&1 || { cat "$work/run.log"; fail "the tier file does not pass"; }
# MOVCONF_GEN_SKIP_TIERS=1 neither compares nor sweeps the tier.
echo '{}' >"$work/out-large/batch_to_space_2/stray.json"
MOVCONF_GEN_SKIP_TIERS=1 "$movconf" gen --check --op b2s --generators "$work/gen" --out "$work/out" \
  >"$work/log" 2>&1 || { cat "$work/log"; fail "--check with the tier skipped"; }
"$movconf" gen --check --op b2s --generators "$work/gen" --out "$work/out" >"$work/log" 2>&1
grep -q "out-large/batch_to_space_2/stray.json: extra" "$work/log" || { cat "$work/log"; fail "stray tier file"; }
# gen --help says where a tier group's file goes.
"$movconf" gen --help >"$work/help" 2>&1
grep -q 'DIR-<tier>/<op>/<group>.json' "$work/help" || fail "gen --help does not name DIR-<tier>/"
grep -q 'DIR-large/' "$work/help" || fail "gen --help does not name DIR-large/"
echo "tier groups: bounds enforced, files in OUT-large/<op>/"
