#!/bin/sh
# movconf gen is reproducible: regenerating from generators/ into an empty
# folder gives exactly the committed conformance/<op>/generated/ and
# conformance-large/<op>/ files, byte
# for byte (a missing or an extra file fails too). Then --check must agree:
# silent on the committed files, and failing on a changed, a missing and an
# extra file.
# usage: gen_reproducible.sh MOVCONF SOURCE_DIR WORK_DIR
set -u
movconf=$1 src=$2 work=$3
# Every operation with a description in generators/ (its slug is the file name).
ops=$(cd "$src/generators" && ls -- *.json | sed 's/\.json$//')
fail() {
  echo "FAILED: $*"
  exit 1
}
rm -rf "$work"
mkdir -p "$work" || fail "cannot create $work"
"$movconf" gen --generators "$src/generators" --out "$work/fresh" 2>"$work/gen.log" ||
  { cat "$work/gen.log"; fail "movconf gen exited with $?"; }
for op in $ops; do
  diff -r "$work/fresh/$op/generated" "$src/conformance/$op/generated" ||
    fail "$op: the committed generated files differ from what movconf gen writes (run movconf gen)"
  # The groups of the large tier go to OUT-large/<op>/ (generators/README.md, "Tiers").
  # Instrumented builds leave them out (MOVCONF_GEN_SKIP_TIERS=1, tests/CMakeLists.txt).
  [ "${MOVCONF_GEN_SKIP_TIERS:-0}" = 1 ] || diff -r "$work/fresh-large/$op" "$src/conformance-large/$op" ||
    fail "$op: the committed large-tier files differ from what movconf gen writes (run movconf gen)"
done
echo "regenerated files equal the committed ones"

# What follows tests --check and the sweep on the default groups; building the
# large tier again would cost half a minute a run (tests/gen_tiers.sh covers
# the sweep of tier folders).
MOVCONF_GEN_SKIP_TIERS=1
export MOVCONF_GEN_SKIP_TIERS

"$movconf" gen --check --generators "$src/generators" --out "$src/conformance" >"$work/check.log" 2>&1 ||
  { cat "$work/check.log"; fail "movconf gen --check on the committed files"; }

# --check must notice a changed, a missing and an extra file.
copy="$work/copy"
cp -R "$work/fresh" "$copy"
first=$(ls "$copy/space_to_depth_1/generated" | head -n 1)
printf ' ' >>"$copy/space_to_depth_1/generated/$first"
rm "$copy/batch_to_space_2/generated/rank2.json"
echo '{}' >"$copy/extract_image_patches_3/generated/stray.json"
"$movconf" gen --check --generators "$src/generators" --out "$copy" >"$work/tamper.log" 2>&1
status=$?
cat "$work/tamper.log"
[ "$status" -eq 1 ] || fail "--check on tampered files exited with $status, not 1"
grep -q "space_to_depth_1/generated/$first: differs" "$work/tamper.log" || fail "changed file not reported"
grep -q "batch_to_space_2/generated/rank2.json: missing" "$work/tamper.log" || fail "missing file not reported"
grep -q "extract_image_patches_3/generated/stray.json: extra" "$work/tamper.log" || fail "extra file not reported"

# Writing again over the copy repairs it, removing the extra file.
"$movconf" gen --generators "$src/generators" --out "$copy" 2>/dev/null >/dev/null || fail "rewrite"
diff -r "$copy" "$work/fresh" || fail "rewriting did not restore the files"
echo "movconf gen --check reports changed, missing and extra files"
