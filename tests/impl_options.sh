#!/bin/sh
# The implementation options (--impl, --threads, --timeout, --memory-limit,
# --max-output-bytes, --sanitize, --fresh-process-per-case) are one parser
# with one set of limits: run, show and fuzz (and bench, for --threads)
# refuse the same out-of-range values, exit 2, with the same message; and
# run, show and fuzz print the same help text for them.
# usage: impl_options.sh MOVCONF WORK_DIR
set -u
movconf=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
. "$(dirname "$0")/expect.sh"

# refused COMMAND OPTION VALUE: the message, its command's name taken out.
refused() {
  "$movconf" "$1" "$2" "$3" some-case >"$work/out" 2>"$work/err"
  status=$?
  test "$status" -eq 2 || echo "exit $status"
  head -n 1 "$work/err" | sed "s/^movconf $1: /movconf COMMAND: /"
}

check() { # check OPTION VALUE WANT COMMANDS...
  option=$1 value=$2 want=$3
  shift 3
  for command in "$@"; do
    got=$(refused "$command" "$option" "$value")
    expect "$command $option $value: '$want'" test "$got" = "$want"
  done
}

check --threads 0 "movconf COMMAND: --threads takes a number from 1 to 1024, not '0'" run show fuzz bench
check --threads 1025 "movconf COMMAND: --threads takes a number from 1 to 1024, not '1025'" run show fuzz bench
check --timeout 86401 \
  "movconf COMMAND: --timeout takes seconds from 0 (no timeout) to 86400, not '86401'" run show fuzz
check --timeout -1 "movconf COMMAND: --timeout takes seconds from 0 (no timeout) to 86400, not '-1'" \
  run show fuzz
check --memory-limit 16777217 \
  "movconf COMMAND: --memory-limit takes MiB from 0 (no limit) to 16777216, not '16777217'" \
  run show fuzz
check --max-output-bytes 9223372036854775808 \
  "movconf COMMAND: --max-output-bytes takes a byte count from 0 to 9223372036854775807, not '9223372036854775808'" \
  run show fuzz
check --sanitize memory "movconf COMMAND: --sanitize takes address, not 'memory'" run show fuzz

# One help text: the lines from --impl to --fresh-process-per-case are the same.
for command in run show fuzz; do
  "$movconf" "$command" --help | sed -n '/^  --impl SPEC/,/until it fails)$/p' >"$work/$command.help"
done
expect "run's help has the implementation options" grep -q -- '--fresh-process-per-case' "$work/run.help"
expect "show's help has run's implementation options" cmp -s "$work/run.help" "$work/show.help"
expect "fuzz's help has run's implementation options" cmp -s "$work/run.help" "$work/fuzz.help"
expect_report
