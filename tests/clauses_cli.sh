#!/bin/sh
# movconf clauses: passes on the whole suite, fails (listing the clauses)
# on case sets that leave clauses uncited, and rejects bad usage.
# usage: clauses_cli.sh MOVCONF SOURCE_DIR WORK_DIR
set -u
movconf=$1 src=$2 work=$3
mkdir -p "$work"
. "$(dirname "$0")/expect.sh"
status_of() { # status_of OUTPUT COMMAND...: runs it, output to a file, prints the exit status
  out=$1; shift
  "$@" >"$out" 2>&1
  echo $?
}

s=$(status_of "$work/all.txt" "$movconf" clauses --json "$work/all.json" "$src/conformance")
expect "whole suite: exit 0" test "$s" -eq 0
expect "whole suite: summary" grep -q 'every clause has a case$' "$work/all.txt"
expect "whole suite: B2S-V9 row names its error" grep -Eq '^B2S-V9 +V +[1-9][0-9]* +[1-9].*batch_not_divisible' "$work/all.txt"
expect "whole suite: json has no uncited clause" grep -q '"uncited":	\[\]' "$work/all.json"

# One small file: everything it does not cite is listed, and the exit status is 1.
one="$src/conformance/space_to_depth_1/spec_examples.json"
s=$(status_of "$work/one.txt" "$movconf" clauses --json "$work/one.json" "$one")
expect "one file: exit 1" test "$s" -eq 1
expect "one file: lists S2D-V5 and B2S-V1" sh -c "grep '^clauses no case cites: ' '$work/one.txt' | grep -q 'S2D-V5, .*B2S-V1\\|B2S-V1, .*S2D-V5'"
expect "one file: does not list the cited S2D-S1" sh -c "! grep '^clauses no case cites: ' '$work/one.txt' | grep -q 'S2D-S1'"
expect "one file: S2D-V5 marked" grep -Eq '^S2D-V5 +V +0 +0 .*<-- no case$' "$work/one.txt"
expect "one file: json lists S2D-V5" grep -q '"S2D-V5"' "$work/one.json"

# --op: the operation's own clauses must be cited, the common ones need not.
s=$(status_of "$work/op.txt" "$movconf" clauses --op s2d "$src/conformance/space_to_depth_1")
expect "--op s2d on its folder: exit 0" test "$s" -eq 0
expect "--op s2d: no B2S rows" sh -c "! grep -q '^B2S-' '$work/op.txt'"
s=$(status_of "$work/op-other.txt" "$movconf" clauses --op d2s "$src/conformance/space_to_depth_1")
expect "--op d2s on the s2d folder: exit 1" test "$s" -eq 1
expect "--op d2s on the s2d folder: D2S-V1 listed" grep -q '^clauses no case cites: .*D2S-V1' "$work/op-other.txt"

# A citation of an id that is no clause fails too.
sed 's/"S2D-S1", "S2D-S2"/"S2D-S1", "S2D-Q7", "S2D-S2"/' "$one" >"$work/unknown.json"
s=$(status_of "$work/unknown.txt" "$movconf" clauses --op s2d "$work/unknown.json" "$src/conformance/space_to_depth_1")
expect "unknown clause id: exit 1" test "$s" -eq 1
expect "unknown clause id: said" grep -q '1 citations of ids that are not clauses' "$work/unknown.txt"

# A file that does not load fails.
printf '{"format": "movconf-cases/1"' >"$work/broken.json"
s=$(status_of "$work/broken.txt" "$movconf" clauses "$src/conformance" "$work/broken.json")
expect "broken file: exit 1" test "$s" -eq 1
expect "broken file: counted" grep -q '1 files did not load' "$work/broken.txt"

# Usage errors.
s=$(status_of "$work/u1.txt" "$movconf" clauses --bogus)
expect "unknown option: exit 2" test "$s" -eq 2
s=$(status_of "$work/u2.txt" "$movconf" clauses --op nothing)
expect "bad --op: exit 2" test "$s" -eq 2
s=$(status_of "$work/u3.txt" "$movconf" clauses --json)
expect "--json without a value: exit 2" test "$s" -eq 2
s=$(status_of "$work/u4.txt" "$movconf" clauses "$work/does-not-exist")
expect "missing path: exit 2" test "$s" -eq 2
s=$(status_of "$work/help.txt" "$movconf" help clauses)
expect "help: exit 0" test "$s" -eq 0
expect "help: explains --op" grep -q -- '--op OP' "$work/help.txt"

expect_report
