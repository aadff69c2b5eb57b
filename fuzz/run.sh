#!/usr/bin/env bash
# Runs every fuzz target built by fuzz/build.sh for a bounded time, one after another.
#
#   fuzz/run.sh [SECONDS] [TARGET...]      # default: 60 seconds each, every target
#   fuzz/run.sh --list                     # the targets run by default, one a line
#
# Every target is every fuzz/targets/<name>.swift (as fuzz/build.sh builds them); its dictionary
# is fuzz/dict/<name>.dict, or json.dict for a format without one.
#
# For each target: first replays fuzz/regressions/<target>/* (crashers found before, kept
# as files), then fuzzes for SECONDS with the committed seeds fuzz/corpus/<target>/ and the
# growing corpus .build-fuzz/corpus/<target>/ (kept between runs, never committed). A hang
# longer than 5 s, more than 2 GiB of memory, a leak, a crash or a broken property is a
# finding: its input lands in .build-fuzz/findings/<target>/ and the exit status is 1.
set -uo pipefail
cd "$(dirname "$0")/.."

mapfile -t every_target < <(find fuzz/targets -maxdepth 1 -name '*.swift' -printf '%f\n' | sed 's/\.swift$//' | sort)
if [ "${1:-}" = --list ]; then
    printf '%s\n' "${every_target[@]}"
    exit 0
fi

SECONDS_EACH=${1:-60}
shift $(( $# > 0 ? 1 : 0 ))
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=("${every_target[@]}")

OUT=.build-fuzz
COMMON=(-timeout=5 -rss_limit_mb=2048 -print_final_stats=1)

# libFuzzer and ASan print the stack of a finding. Swift's own backtracer would also start on
# abort() and, left orphaned, keep the output pipe (and libFuzzer's -minimize_crash) waiting.
export SWIFT_BACKTRACE=enable=no
# The plan target writes each input to a file: on tmpfs when there is one, removed at the end.
if [ -z "${FUZZ_SCRATCH:-}" ]; then
    FUZZ_SCRATCH=$(mktemp -d "$( [ -w /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")/runner-fuzz.XXXXXX")
    export FUZZ_SCRATCH
    trap 'rm -rf "$FUZZ_SCRATCH"' EXIT
fi

# Inputs larger than real ones only slow the search: plans are a few KiB, answers a few hundred bytes.
max_len() { case $1 in plan) echo 65536 ;; *) echo 8192 ;; esac; }
dict() { if [ -f "fuzz/dict/$1.dict" ]; then echo "fuzz/dict/$1.dict"; else echo fuzz/dict/json.dict; fi; }

failed=()
summary=()
for target in "${TARGETS[@]}"; do
    binary=$OUT/bin/$target
    if [ ! -x "$binary" ]; then
        echo "fuzz/run.sh: $binary is missing; run fuzz/build.sh first" >&2
        exit 2
    fi
    mkdir -p "$OUT/corpus/$target" "$OUT/findings/$target" "$OUT/logs"
    log=$OUT/logs/$target.log

    # Every crasher found so far must pass before new ones are looked for.
    shopt -s nullglob
    regressions=(fuzz/regressions/"$target"/*)
    shopt -u nullglob
    if [ ${#regressions[@]} -gt 0 ]; then
        if "$binary" "${COMMON[@]}" "${regressions[@]}" > "$OUT/logs/$target.regressions.log" 2>&1; then
            echo "$target: ${#regressions[@]} regression input(s) pass"
        else
            echo "$target: a regression input fails again, see $OUT/logs/$target.regressions.log"
            failed+=("$target (regression)")
            summary+=("$target: REGRESSION FAILS")
            continue
        fi
    fi

    echo "$target: fuzzing for ${SECONDS_EACH}s (log: $log)"
    started=$(date +%s)
    "$binary" "${COMMON[@]}" -max_total_time="$SECONDS_EACH" -max_len="$(max_len "$target")" \
        -dict="$(dict "$target")" -artifact_prefix="$OUT/findings/$target/" \
        "$OUT/corpus/$target" "fuzz/corpus/$target" > "$log" 2>&1
    status=$?
    elapsed=$(( $(date +%s) - started ))

    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$last")
    corpus=$(sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p' <<< "$last")
    line="$target: ${elapsed}s, ${execs:-?} execs (${rate:-?}/s), cov ${cov:-?}, ft ${ft:-?}, corpus ${corpus:-?}"
    if [ $status -eq 0 ]; then
        line+=", no finding"
    else
        artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
        reason=$(grep -m1 -E 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|fuzz target: ' "$log")
        line+=", FINDING (exit $status): ${reason:-see $log} -> ${artifact:-no artifact}"
        failed+=("$target")
    fi
    echo "$line"
    summary+=("$line")
done

echo
echo "fuzz/run.sh summary (${SECONDS_EACH}s per target):"
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz/run.sh: findings in: ${failed[*]}."
    echo "  minimize: SWIFT_BACKTRACE=enable=no $OUT/bin/TARGET -minimize_crash=1 -max_total_time=60 -exact_artifact_path=fuzz/regressions/TARGET/NAME FILE"
    echo "  triage:   FUZZ_PRINT=1 $OUT/bin/TARGET FILE"
    exit 1
fi
