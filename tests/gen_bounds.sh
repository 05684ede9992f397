#!/bin/sh
# movconf gen keeps its memory bounded: a group whose case file would pass
# the loader's limit (MC_CASE_MAX_FILE_BYTES, 64 MiB) is refused within
# seconds, in little memory, naming the group and the limit, and leaves no
# file behind (a file already there stays as it was); a small description
# still gives its files, and the summary names the folders they went to; a
# long group shows its progress on a terminal.
# usage: gen_bounds.sh MOVCONF WORK_DIR PYTHON [PEAK_MIB [SECONDS [HEAVY]]]
# PEAK_MIB (default 300) is the most memory gen may hold, SECONDS (default
# 60) the longest it may take; the sanitizer builds pass more (shadow
# memory, quarantine, slower code). HEAVY (run or skip, default run): the
# check of the loader's 1 GiB of tensors per file, which makes a gigabyte.
set -u
movconf=$1 work=$2 python=$3 peak_mib=${4:-300} limit_s=${5:-60} heavy=${6:-run}
. "$(dirname "$0")/expect.sh"
rm -rf "$work"
mkdir -p "$work/gen" "$work/small" || { echo "FAILED: cannot create $work"; exit 1; }

# measure LOG CMD...: runs CMD for at most SECONDS with stdout and stderr
# to LOG, stopped as soon as it holds more than PEAK_MIB; writes "STATUS
# SECONDS PEAK_MIB" to LOG.measure (status 124: the time ran out, 125: the
# memory did).
measure() {
  log=$1
  shift
  "$python" - "$log" "$peak_mib" "$limit_s" "$@" <<'PY'
import resource, subprocess, sys, time
log, limit, budget, cmd = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4:]
start = time.monotonic()
with open(log, "wb") as out:
    child = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    status = None
    while status is None:
        try:
            status = child.wait(timeout=0.05)
        except subprocess.TimeoutExpired:
            try:
                with open("/proc/%d/status" % child.pid) as f:
                    rss = [int(l.split()[1]) for l in f if l.startswith("VmRSS:")]
            except OSError:
                rss = []
            late = time.monotonic() - start > budget
            if late or (rss and rss[0] > limit * 1024):
                child.kill()
                child.wait()
                status = 124 if late else 125
seconds = time.monotonic() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
with open(log + ".measure", "w") as f:
    f.write("%d %.1f %d\n" % (status, seconds, peak))
PY
  read -r status seconds peak <"$log.measure"
  echo "$* -> status $status, $seconds s, peak $peak MiB"
}

# One DepthToSpace group of 20,000 cases, each with a 1 MiB output written
# inline (expected_inline_bytes 1 MiB: as hex, 2 MiB a case): about 40 GB.
starts=$(seq -s, 0 19999)
cat >"$work/gen/depth_to_space_1.json" <<JSON
{
  "format": "movconf-gen/1", "op": "DepthToSpace-1", "description": "gen_bounds.sh",
  "expected_inline_bytes": 1048576, "expected_max_values": 64,
  "groups": [
    {"group": "huge-outputs", "kind": "valid", "about": "20,000 cases of 1 MiB outputs.", "seed": 1,
     "set": {"spatial": [1024, 1024], "block_size": 1, "mode": "blocks_first"},
     "vary": {"fill_start": [$starts]}}
  ]
}
JSON
# A file of the group already there must stay as it was.
out="$work/out" file="$work/out/depth_to_space_1/generated/huge-outputs.json"
mkdir -p "$(dirname "$file")"
echo '{"previous": true}' >"$file"
for mode in write check; do
  flag=
  [ "$mode" = check ] && flag=--check
  measure "$work/$mode.log" "$movconf" gen $flag --op d2s --generators "$work/gen" --out "$out"
  [ "$mode" = write ] && write_seconds=$seconds
  expect "$mode: refused with status 1 or 2, not $status" [ "$status" -eq 1 -o "$status" -eq 2 ]
  expect "$mode: at most $peak_mib MiB held ($peak MiB)" [ "$peak" -le "$peak_mib" ]
  has "$work/$mode.log" "group huge-outputs: refused"
  has "$work/$mode.log" "limit of 64 MiB"
  has "$work/$mode.log" "about [0-9]* MiB or more"
  has "$work/$mode.log" "Split the group"
done
expect "the file there is left as it was" grep -q previous "$file"
expect "no other file left behind" [ "$(find "$out" -type f)" = "$file" ]

# Small on disk, too large to load: an invalid large-tier group (no output
# is computed) of 64 MiB u64 fill inputs, 18 cases: past the loader's 1 GiB
# of tensors for one file at the 16th (16 x 64 MiB and the side inputs), so
# refused there, before a file that run would not load is written.
if [ "$heavy" = run ]; then
  mkdir -p "$work/heavy"
  cat >"$work/heavy/batch_to_space_2.json" <<'JSON'
{
  "format": "movconf-gen/1", "op": "BatchToSpace-2", "description": "gen_bounds.sh",
  "expected_inline_bytes": 64, "expected_max_values": 16,
  "groups": [
    {"group": "heavy", "kind": "invalid", "about": "64 MiB fill inputs, batch not divisible.",
     "clause": "B2S-V9", "error": "batch_not_divisible", "seed": 1, "tier": "large",
     "max_input_bytes": 67108864,
     "set": {"data_shape": [4, 1024, 2048], "block_shape": [1, 3, 1], "crops_begin": [0, 0, 0],
             "crops_end": [0, 0, 0], "type": "u64"},
     "vary": {"fill_start": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]}}
  ]
}
JSON
  measure "$work/heavy.log" "$movconf" gen --op b2s --generators "$work/heavy" --out "$work/h"
  expect "1 GiB of tensors: refused with status 1, not $status" [ "$status" -eq 1 ]
  has "$work/heavy.log" "group heavy: refused: the tensors of its case file would take more than the case loader's limit of 1024 MiB"
  has "$work/heavy.log" "cases 0 to 15 of its 18"
  expect "1 GiB of tensors: no file written" [ -z "$(find "$work/h" "$work/h-large" -type f 2>/dev/null)" ]
fi

# A small description: a default group and a large-tier group, written,
# loadable, and named with their folders in the summary.
cat >"$work/small/batch_to_space_2.json" <<'JSON'
{
  "format": "movconf-gen/1", "op": "BatchToSpace-2", "description": "gen_bounds.sh",
  "expected_inline_bytes": 64, "expected_max_values": 16,
  "groups": [
    {"group": "small", "kind": "valid", "about": "a default group.", "seed": 1,
     "set": {"block": 2}, "vary": {"spatial": [[2, 2], [3, 1], [1, 4]]}},
    {"group": "tiered", "kind": "valid", "about": "a tier group.", "seed": 2, "tier": "large",
     "set": {"spatial": [4, 4], "block": 2}}
  ]
}
JSON
measure "$work/small.log" "$movconf" gen --op b2s --generators "$work/small" --out "$work/s"
expect "a small description is written ($status)" [ "$status" -eq 0 ]
has "$work/small.log" "3 cases written to $work/s, 1 to $work/s-large"
expect "its files load and pass" "$movconf" run "$work/s" "$work/s-large"
measure "$work/small-check.log" "$movconf" gen --check --op b2s --generators "$work/small" --out "$work/s"
expect "--check finds them up to date ($status)" [ "$status" -eq 0 ]
has "$work/small-check.log" "3 cases checked against $work/s, 1 against $work/s-large"
printf ' ' >>"$work/s-large/batch_to_space_2/tiered.json"
"$movconf" gen --check --op b2s --generators "$work/small" --out "$work/s" >"$work/tampered.log" 2>&1
expect "--check: a longer file differs" grep -q "tiered.json: differs" "$work/tampered.log"

# A long group (over a second) shows its progress on a terminal (script(1)
# gives gen one), from its first second on; without a terminal it stays
# quiet.
n_long=100
starts=$(seq -s, 1 $n_long)
cat >"$work/small/batch_to_space_2.json" <<JSON
{
  "format": "movconf-gen/1", "op": "BatchToSpace-2", "description": "gen_bounds.sh",
  "expected_inline_bytes": 64, "expected_max_values": 16,
  "groups": [
    {"group": "long", "kind": "valid", "about": "1 MiB inputs, hashed outputs.", "seed": 1,
     "set": {"spatial": [512, 512], "block": 2},
     "vary": {"fill_start": [$starts]}, "cycle": {"crops": ["zero", "begin", "end", "mid"]}}
  ]
}
JSON
if command -v script >/dev/null 2>&1; then
  measure "$work/tty.log" script -qec "'$movconf' gen --op b2s --generators '$work/small' --out '$work/long'" /dev/null
  expect "on a terminal: done ($status)" grep -q "$n_long cases written" "$work/tty.log"
  if awk -v s="$seconds" 'BEGIN { exit !(s >= 1.5) }'; then
    has "$work/tty.log" "\[gen\] batch_to_space_2/long: [0-9]* of $n_long cases"
  else
    echo "(the long group took $seconds s, under 1.5 s: its progress is not checked)"
  fi
fi
# The refused group ran for seconds too, not on a terminal.
if [ "${write_seconds%.*}" -ge 2 ]; then
  lacks "$work/write.log" "\[gen\]"
fi
expect_report
