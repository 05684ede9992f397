#!/bin/bash
# The bash completion (tools/movconf-completion.bash) against movconf itself,
# so that it cannot drift: the commands of `movconf --help`; for each command
# every option its help documents, and only options its parser accepts; the
# operations and element types of a conformance run's tables; the --impl
# kinds, tiers, summary keys, sanitizers and granularities its error
# messages list.
# usage: completion.sh MOVCONF COMPLETION_SCRIPT CASE_FILE WORK
set -u
movconf=$1 script=$2 case_file=$3 work=$4
# The completion asks the movconf on the command line for its operations.
PATH="$(cd "$(dirname "$movconf")" && pwd):$PATH"
. "$(dirname "$0")/expect.sh"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
# shellcheck source=/dev/null
. "$script"

# What the completion offers for a command line ending with the word being
# completed (possibly empty), one per line, sorted.
offers() {
  read -r -a COMP_WORDS <<<"$1"
  [ "${1: -1}" = " " ] && COMP_WORDS+=("")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  _movconf 2>/dev/null
  printf '%s\n' "${COMPREPLY[@]}" | sort -u
}
words() { tr ' ,' '\n\n' | sed '/^$/d' | sort -u; }
same() { # NAME EXPECTED_FILE ACTUAL_FILE
  expect "$1: the completion offers what movconf says ($(diff "$2" "$3" | tr '\n' ' '))" \
    cmp -s "$2" "$3"
}

# Commands: the list of movconf --help.
"$movconf" --help | sed -n '/^commands:$/,/^$/p' | grep -oE '^  [a-z][a-z-]*' | words >"$work/commands"
expect "movconf --help lists commands" test -s "$work/commands"
{ cat "$work/commands"; echo --help; echo --version; } | sort -u >"$work/commands-all"
offers "movconf " >"$work/offered-commands"
same "commands" "$work/commands-all" "$work/offered-commands"

# Options: each documented one is offered; each offered one is known to the
# parser (--opt=1 then an unknown option: exits 2 before anything runs).
"$movconf" --bogus-option-zz >/dev/null 2>"$work/bogus.txt"
for cmd in $(grep -vx help "$work/commands"); do
  "$movconf" help "$cmd" |
    grep -oE '^ +(-h, )?--[a-z][a-z-]*( [^ ,]+)?(, --[a-z][a-z-]*( [^ ,]+)?)*' |
    grep -oE -- '--[a-z][a-z-]*' | sort -u >"$work/documented-$cmd"
  offers "movconf $cmd --" >"$work/offered-$cmd"
  missing=$(comm -23 "$work/documented-$cmd" "$work/offered-$cmd" | tr '\n' ' ')
  expect "$cmd: every documented option is offered (missing: $missing)" test -z "$missing"
  while read -r option; do
    timeout 60 "$movconf" "$cmd" "$option=1" --zz-not-an-option >/dev/null 2>"$work/parse.txt"
    status=$?
    expect "$cmd $option: the parser knows it (exit $status: $(head -c 200 "$work/parse.txt" | tr "\n" " "))" \
      sh -c "[ $status -eq 2 ] && ! grep -q \"unrecognized option '$option\" '$work/parse.txt'"
  done <"$work/offered-$cmd"
done
"$movconf" run --zz-not-an-option >/dev/null 2>"$work/unknown.txt"
has "$work/unknown.txt" "unrecognized option '--zz-not-an-option"

# Operations and element types: the names of a run's operation and type tables
# (every operation and every type has cases) are offered, and every value
# offered is accepted.
"$movconf" run --quiet --summary-by type >"$work/table.txt" 2>&1
sed -n '/^operation /,/^total /p' "$work/table.txt" | sed '1d;$d' | awk '{print $1}' | sort -u >"$work/ops"
sed -n '/^by type /,/^$/p' "$work/table.txt" | sed '1d' | awk 'NF {print $1}' | sort -u >"$work/types"
known=$("$movconf" help operations | wc -l)
expect "the run names all $known operations" test "$(wc -l <"$work/ops")" -eq "$known"
offers "movconf run --op " >"$work/offered-ops"
missing=$(comm -23 "$work/ops" "$work/offered-ops" | tr '\n' ' ')
expect "every operation is offered (missing: $missing)" test -z "$missing"
offers "movconf fuzz --type " >"$work/offered-types"
same "element types" "$work/types" "$work/offered-types"
for value in $(cat "$work/offered-ops"); do
  "$movconf" run --quiet --op "$value" "$case_file" >/dev/null 2>"$work/value.txt"
  lacks "$work/value.txt" "takes"
done
for value in $(cat "$work/offered-types"); do
  "$movconf" run --quiet --type "$value" "$case_file" >/dev/null 2>"$work/value.txt"
  lacks "$work/value.txt" "takes"
done

# --impl kinds: those of "unknown implementation ... (available: ...)".
"$movconf" run --impl zz "$case_file" 2>&1 | sed -n 's/.*(available: \(.*\))$/\1/p' |
  sed -E "s/'[^']*'//g; s/PATH[^,]*//g" | words >"$work/impls"
expect "movconf names its implementation kinds" test -s "$work/impls"
offers "movconf run --impl " >"$work/offered-impls"
same "--impl kinds" "$work/impls" "$work/offered-impls"

# Enumerated values: those of "--OPTION takes A, B or C, not 'zz'".
for option in tier summary-by sanitize expect-granularity; do
  "$movconf" run "--$option" zz "$case_file" 2>&1 | sed -n "s/.*--$option takes \(.*\), not 'zz'$/\1/p" |
    sed 's/ or /,/' | words >"$work/values-$option"
  expect "--$option names its values" test -s "$work/values-$option"
  offers "movconf run --$option " >"$work/offered-$option"
  same "--$option" "$work/values-$option" "$work/offered-$option"
done
expect_report
