#!/bin/sh
# tools/torch_bench.py knows every movconf bench workload: with --quick
# shapes it checks each formulation against reference/reference_model.py
# and must give one row per workload of `movconf bench --list --quick`.
# usage: torch_bench_rows.sh MOVCONF SOURCE_DIR WORK_DIR   (exit 77: no torch)
movconf=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
/usr/bin/python3 -c 'import torch' 2>/dev/null || { echo "skipped: no PyTorch"; exit 77; }
/usr/bin/python3 "$src/tools/torch_bench.py" --movconf "$movconf" --quick --no-bracket \
  --threads 1 --json "$work/torch.json" || { echo "FAIL: torch_bench.py exited $?"; exit 1; }
"$movconf" bench --list --quick | awk '{ print $1 }' | sort >"$work/want" || exit 1
/usr/bin/python3 -c 'import json, sys
for row in json.load(open(sys.argv[1]))["workloads"]:
    print(row["id"])' "$work/torch.json" | sort >"$work/got" || exit 1
if ! cmp -s "$work/want" "$work/got"; then
  echo "FAIL: workloads without a PyTorch row (<) or unknown to movconf bench (>):"
  diff "$work/want" "$work/got"
  exit 1
fi
# Pad and Gather have no view: F.pad and index_select are the copy, timed
# alone (a copy_ or contiguous() after them would time two copies).
/usr/bin/python3 -c 'import json, sys
bad = [(row["id"], name) for row in json.load(open(sys.argv[1]))["workloads"]
       if row["id"].split("/")[0] in ("pad", "ga")
       for name in row["formulations"] if name.startswith("permute+")]
for wid, name in bad:
    print("FAIL: %s is timed as %s, a copy after the copy" % (wid, name))
sys.exit(1 if bad else 0)' "$work/torch.json" || exit 1
echo "ok: $(wc -l <"$work/got") workloads, every formulation equal to the reference model"
