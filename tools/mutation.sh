#!/bin/sh
# Mutation score of the test suite: builds the optimized kernels with each
# deliberate fault of src/optimized/mutants.h and checks that the conformance
# suite or a short libFuzzer campaign notices it. `tools/mutation.sh --help`
# explains every option; docs/mutation.md lists the mutants and the last
# score. The work is done by tools/mutation.py (Python 3, standard library).
exec python3 "$(dirname "$0")/mutation.py" "$@"
