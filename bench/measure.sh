# Sourced by the bench scripts: how a run is measured and judged. On this shared 2-core machine
# wall time moves by up to 1.6x between runs of the same work; what a run costs does not: its
# instructions (callgrind, repeatable to ~2 %) and, less tightly, its CPU time (user + system).
# So a verdict rests on instructions when valgrind is there, on CPU time otherwise, and wall
# time is printed beside, never judged (issue 47).
#
#   measure_tools                    installs valgrind and binutils (objcopy) when missing
#   timed PREFIX CMD...              runs CMD, its output in PREFIX.out and PREFIX.err; prints
#                                    "WALL_S CPU_S RSS_KIB" (CPU: user + system)
#   stripped_runner BIN_DIR          a copy of BIN_DIR/runner without DWARF, which valgrind 3.19
#                                    cannot read (the symbol table stays), at $work/runner.stripped
#   instructions PREFIX CMD...       runs CMD once under callgrind, its output in PREFIX.out and
#                                    PREFIX.err; prints the instructions it executed
#   marginal LABEL SMALL LARGE ARG...
#                                    the stripped runner under callgrind on plan SMALL, then on
#                                    plan LARGE (ARG... before the plan); sets counted to the
#                                    difference, so start-up, the handshakes and what a run does
#                                    once cancel; fails unless each run printed its summary with
#                                    no errors (a plan for callgrind wants longer time limits:
#                                    slow_limits FILE...)
#   slow_limits FILE...              every `timeout: Ns` in the plans becomes 300 s with a
#                                    connect_timeout of 300 s: under callgrind a run is ~50x slower
#   median VALUE...                  the median (the lower middle of an even count)
#   ratio A B                        A / B to three places (0 when B is 0)
#   within VALUE TARGET              1 when VALUE <= TARGET, else 0
#   verdict OK                       PASS for 1, MISS for 0
#   judged TARGET BASE ARM           prints a figure's rows, the arm against the base, and fails
#                                    (status 1) on a MISS. BASE and ARM are each
#                                    "INSTRUCTIONS|CPU_S ...|WALL_S ..." (a run's instructions,
#                                    empty without valgrind; the rounds' CPU and wall times): the
#                                    verdict is the instructions' ratio <= TARGET, or the CPU
#                                    medians' without them; the other figures are printed beside.
# The caller sets $work (a folder of its own under .bench).

measure_tools() {
  local missing="" package
  for package in valgrind binutils time; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing="$missing $package"
  done
  [ -z "$missing" ] || "$(dirname "${BASH_SOURCE[0]}")/../tools/install-packages.sh" $missing
}

timed() {
  local prefix=$1; shift
  local start end
  start=$(date +%s%N)
  /usr/bin/time -f "%U %S %M" -o "$prefix.time" "$@" > "$prefix.out" 2> "$prefix.err" || true
  end=$(date +%s%N)
  tail -n 1 "$prefix.time" | awk -v n=$((end - start)) '{ printf "%.3f %.2f %d\n", n / 1e9, $1 + $2, $3 }'
}

stripped_runner() {
  [ -x "$work/runner.stripped" ] && [ "$work/runner.stripped" -nt "$1/runner" ] && return 0
  objcopy --strip-debug "$1/runner" "$work/runner.stripped"
}

instructions() {
  local prefix=$1; shift
  timeout 1800 valgrind --tool=callgrind --log-file="$prefix.vg" --callgrind-out-file="$prefix.cg" "$@" \
    > "$prefix.out" 2> "$prefix.err" || true
  sed -n 's/.*Collected : *//p' "$prefix.vg" | tr -d ' ,' | head -n 1
}

marginal() {
  local label=$1 small=$2 large=$3 size small_count large_count; shift 3
  for size in small large; do
    local plan=$small
    [ "$size" = small ] || plan=$large
    local counted_here
    counted_here=$(instructions "$work/instr.$label.$size" "$work/runner.stripped" "$@" "$plan")
    tail -n 1 "$work/instr.$label.$size.out" | grep -q "passed, .*, 0 errors$" || {
      echo "$(basename "$work"): the $label run on $plan under callgrind did not end without errors:"
      tail -n 5 "$work/instr.$label.$size.out" "$work/instr.$label.$size.err"; exit 1; }
    if [ "$size" = small ]; then small_count=$counted_here; else large_count=$counted_here; fi
  done
  counted=$((large_count - small_count))
}

slow_limits() { sed -i -E 's/timeout: [0-9]+s/timeout: 300s, connect_timeout: 300s/' "$@"; }

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }
within() { awk -v v="$1" -v t="$2" 'BEGIN { print (v <= t) ? 1 : 0 }'; }
verdict() { if [ "$1" = 1 ]; then echo PASS; else echo MISS; fi; }

judged() {
  local target=$1 base_instr base_cpus base_walls arm_instr arm_cpus arm_walls
  IFS='|' read -r base_instr base_cpus base_walls <<< "$2"
  IFS='|' read -r arm_instr arm_cpus arm_walls <<< "$3"
  local bc ac bw aw ok row='  %-40s %12s %12s %12s  %s\n'
  # shellcheck disable=SC2086 # one word per run
  bc=$(median $base_cpus); ac=$(median $arm_cpus); bw=$(median $base_walls); aw=$(median $arm_walls)
  if [ -n "$base_instr" ] && [ -n "$arm_instr" ]; then
    ok=$(within "$(ratio "$arm_instr" "$base_instr")" "$target")
    printf "$row" "  instructions (M), ratio $(ratio "$arm_instr" "$base_instr")" "$((base_instr / 1000000))" \
      "$((arm_instr / 1000000))" "<= ${target}x" "$(verdict "$ok")"
    printf "$row" "  CPU, user + sys (s), ratio $(ratio "$ac" "$bc")" "$bc" "$ac" "" ""
  else
    ok=$(within "$(ratio "$ac" "$bc")" "$target")
    printf "$row" "  CPU, user + sys (s), ratio $(ratio "$ac" "$bc")" "$bc" "$ac" "<= ${target}x" "$(verdict "$ok")"
  fi
  printf "$row" "  wall (s), ratio $(ratio "$aw" "$bw")" "$bw" "$aw" "" ""
  [ "$ok" = 1 ]
}
