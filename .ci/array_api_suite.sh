#!/usr/bin/env bash
# The Array API standard's own test suite (data-apis/array-api-tests) on the installed numcu.
#
#   bash .ci/array_api_suite.sh SUITE [SITE] [-- PYTEST_ARGS...]
#
# SUITE: a checkout of array-api-tests with its array-api submodule (the suite reads
#   array-api/src/array_api_stubs and array-api/spec/<version>/API_specification).
# SITE: a folder put first on PYTHONPATH with what the suite needs beyond numcu's test extra
#   (hypothesis >= 6.151 with revision 2025.12 in hypothesis.extra.array_api, ndindex,
#   pytest-json-report, pytest-metadata), for machines that cannot install them.
# Environment: ARRAY_API_TESTS_VERSION (default 2025.12), MAX_EXAMPLES (Hypothesis examples per
#   test, default 100). Tests expected to fail are .ci/array_api_xfails.txt's; the linalg and
#   fft extensions run where numcu has them (pass --disable-extension linalg fft to leave them).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 SUITE [SITE] [-- PYTEST_ARGS...]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
suite=$(cd "$1" && pwd)
shift
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  export PYTHONPATH="$(cd "$1" && pwd)${PYTHONPATH:+:$PYTHONPATH}"
  shift
fi
[ "${1:-}" = "--" ] && shift
export ARRAY_API_TESTS_MODULE=numcu
export ARRAY_API_TESTS_VERSION="${ARRAY_API_TESTS_VERSION:-2025.12}"
cd "$suite"
# One token per option: a path given as a separate argument would count in pytest's choice of
# rootdir (and take numcu's pytest settings).
exec python3 -m pytest array_api_tests "--rootdir=$suite" -c pytest.ini -p no:cacheprovider \
  -p no:benchmark -rfEX "--xfails-file=$here/array_api_xfails.txt" \
  "--max-examples=${MAX_EXAMPLES:-100}" --disable-deadline "$@"
