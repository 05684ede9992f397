# bash completion for movconf: commands, each command's options, and the
# values of --op, --type, --impl, --tier, --summary-by, --sanitize, --payload,
# --expect-granularity and --format. Installed as share/bash-completion/completions/movconf
# (bash-completion loads it on first use); or: source tools/movconf-completion.bash
# tests/completion.sh checks it against movconf's own --help and option parser.

_movconf_commands="run show check-cases bench clauses gen fuzz report export help"
# The operations come from the movconf being completed (`movconf help
# operations`: name, slug, clause prefix), so a new one needs no edit here:
# each name and its prefix in lower case, as --op accepts them.
_movconf_operations() {
  "$1" help operations 2>/dev/null | awk -F'\t' '{ print $1; print tolower($3) }'
}
_movconf_types="boolean u1 u4 i4 u8 i8 u16 i16 u32 i32 u64 i64 f8e4m3 f8e5m2 f16 bf16 f32 f64"

_movconf_options() {
  case "$1" in
  run) echo "--impl --threads --timeout --handshake-timeout --memory-limit --max-output-bytes --fresh-process-per-case --payload
             --require-named-errors --op --type --sanitize --case --tier --expect --write-expect
             --expect-granularity --fail-fast --max-failures --max-timeouts --time-limit --json
             --junit --quiet --slow --summary-by --shard --jobs --help" ;;
  show) echo "--impl --threads --timeout --handshake-timeout --memory-limit --max-output-bytes --sanitize
              --fresh-process-per-case --payload --full --tier --help" ;;
  check-cases) echo "--help" ;;
  bench) echo "--threads --quick --filter --json --list --impl --timeout --help" ;;
  clauses) echo "--op --json --help" ;;
  gen) echo "--out --op --check --generators --help" ;;
  fuzz) echo "--impl --threads --timeout --handshake-timeout --memory-limit --max-output-bytes --sanitize
              --fresh-process-per-case --payload --op --type --time --runs --seed
              --jobs --shrink-time --no-large --max-findings --out --json --help" ;;
  report) echo "--json --junit --quiet --output --help" ;; # merge's and html's
  export) echo "--format --out --op --type --case --tier --help" ;;
  esac
}

_movconf() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
  local cmd=${COMP_WORDS[1]}
  COMPREPLY=()
  if [ "$COMP_CWORD" -eq 1 ]; then
    mapfile -t COMPREPLY < <(compgen -W "$_movconf_commands --help --version" -- "$cur")
    return
  fi
  # --impl plugin:PATH: ':' splits words (COMP_WORDBREAKS), so PATH is its own word.
  if [ "$prev" = ":" ] && [ "${COMP_WORDS[COMP_CWORD - 2]}" = plugin ]; then
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    compopt -o filenames 2>/dev/null
    return
  fi
  local values=""
  case "$prev" in
  --op) values=$(_movconf_operations "${COMP_WORDS[0]}") ;;
  --type) values=$_movconf_types ;;
  --impl) values="optimized oracle plugin: exec:" ;;
  --tier) values="default large all" ;;
  --format) values="onnx npy" ;;
  --summary-by) values="rank type mode file size" ;;
  --sanitize) values="address" ;;
  --payload) values="auto base64 shared-memory" ;;
  --expect-granularity) values="case group" ;;
  --json | --junit | --expect | --write-expect | --output | -o)
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    compopt -o filenames 2>/dev/null
    return
    ;;
  --out | --generators)
    mapfile -t COMPREPLY < <(compgen -d -- "$cur")
    compopt -o filenames 2>/dev/null
    return
    ;;
  --threads | --timeout | --memory-limit | --max-output-bytes | --case | --max-failures | \
    --max-timeouts | --time-limit | --slow | --filter | --time | --runs | --seed | --jobs | \
    --shrink-time | --shard | --handshake-timeout)
    return
    ;;
  esac
  if [ -n "$values" ]; then
    mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur")
    case "${COMPREPLY[0]}" in *:) compopt -o nospace 2>/dev/null ;; esac
    return
  fi
  if [ "$cmd" = report ] && [ "$COMP_CWORD" -eq 2 ]; then
    mapfile -t COMPREPLY < <(compgen -W "merge html --help" -- "$cur")
    return
  fi
  if [ "$cmd" = help ]; then
    [ "$COMP_CWORD" -eq 2 ] && mapfile -t COMPREPLY < <(compgen -W "$_movconf_commands" -- "$cur")
    return
  fi
  if [[ "$cur" == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_movconf_options "$cmd")" -- "$cur")
    return
  fi
  mapfile -t COMPREPLY < <(compgen -f -- "$cur") # case files and folders
  compopt -o filenames 2>/dev/null
}
complete -F _movconf movconf
