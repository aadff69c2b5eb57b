#!/usr/bin/env bash
# Builds the libFuzzer targets into .build-fuzz/bin, outside SwiftPM (`swift build` is unaffected).
#
#   fuzz/build.sh            # every target
#   FUZZ_OPT=-Onone fuzz/build.sh
#   fuzz/build.sh --list     # the targets' names, one a line, and nothing built
#
# RunnerVocabulary, RunnerPlan, RunnerHTTPDNS (the HTTPDNS wire formats, with the C shim
# CCryptoShim for their auth schemes), RunnerAppTrust (the app's trust files) and RunnerCapture
# (HAR captures) are compiled from Sources/ with
# coverage (-sanitize=fuzzer) and AddressSanitizer; each fuzz/targets/<name>.swift becomes
# .build-fuzz/bin/<name>. -O by default: it keeps every bounds and overflow check (only
# -Ounchecked drops them; the sources have no assert()), and runs 2-4x more inputs a
# second than -Onone under ASan.
set -euo pipefail
cd "$(dirname "$0")/.."

# The targets are the files: a new fuzz/targets/<name>.swift is built with nothing else to edit
# (HTTPDNSFormatRecipeTests checks that each HTTPDNS format has one).
mapfile -t targets < <(find fuzz/targets -maxdepth 1 -name '*.swift' -printf '%f\n' | sed 's/\.swift$//' | sort)
if [ "${1:-}" = --list ]; then
    printf '%s\n' "${targets[@]}"
    exit 0
fi

SWIFTC=${SWIFTC:-swiftc}
CLANG=${CLANG:-clang}
OPT=${FUZZ_OPT:--O}
OUT=.build-fuzz
MODULES=$OUT/modules
LIBS=$OUT/lib
BIN=$OUT/bin
mkdir -p "$MODULES" "$LIBS" "$BIN"

FLAGS=(-sanitize=fuzzer,address -parse-as-library -swift-version 6 -package-name runner "$OPT" -g
       -I Sources/CYAML -I Sources/CCryptoShim/include -I Sources/CDNSShim/include -I Sources/CLDNS -I "$MODULES")

# RunnerVocabulary, the types every layer shares (the plan names strategies, headers, bodies).
mapfile -t vocabulary_sources < <(find Sources/RunnerVocabulary -name '*.swift' | sort)
echo "fuzz/build.sh: RunnerVocabulary (${#vocabulary_sources[@]} files)"
rm -f "$LIBS/libRunnerVocabulary.a"  # an archive keeps members of files since removed
"$SWIFTC" "${FLAGS[@]}" -module-name RunnerVocabulary -emit-library -static -emit-module \
    -emit-module-path "$MODULES/RunnerVocabulary.swiftmodule" -o "$LIBS/libRunnerVocabulary.a" "${vocabulary_sources[@]}"

# The app's own trust files (Network Security Config, Info.plist): RunnerAppTrust, on RunnerVocabulary and
# Foundation; before RunnerPlan, which reads an app's files with it.
mapfile -t apptrust_sources < <(find Sources/RunnerAppTrust -name '*.swift' | sort)
echo "fuzz/build.sh: RunnerAppTrust (${#apptrust_sources[@]} files)"
rm -f "$LIBS/libRunnerAppTrust.a"  # an archive keeps members of files since removed
"$SWIFTC" "${FLAGS[@]}" -module-name RunnerAppTrust -emit-library -static -emit-module \
    -emit-module-path "$MODULES/RunnerAppTrust.swiftmodule" -o "$LIBS/libRunnerAppTrust.a" "${apptrust_sources[@]}"

# RunnerPlan, the plan parser (links libyaml through the CYAML module map). Testing enabled:
# the plan target compares the one-core path with the parallel one (`PlanParallelism`).
mapfile -t plan_sources < <(find Sources/RunnerPlan -name '*.swift' | sort)
echo "fuzz/build.sh: RunnerPlan (${#plan_sources[@]} files, $OPT)"
rm -f "$LIBS/libRunnerPlan.a"  # an archive keeps members of files since removed
"$SWIFTC" "${FLAGS[@]}" -enable-testing -module-name RunnerPlan -emit-library -static -emit-module \
    -emit-module-path "$MODULES/RunnerPlan.swiftmodule" -o "$LIBS/libRunnerPlan.a" "${plan_sources[@]}"

# Captures of an app's traffic (HAR): RunnerCapture, on RunnerVocabulary, RunnerPlan
# (the plan it drafts is written by RunnerPlan's YAMLWriter) and Foundation; after RunnerPlan.
mapfile -t capture_sources < <(find Sources/RunnerCapture -name '*.swift' | sort)
echo "fuzz/build.sh: RunnerCapture (${#capture_sources[@]} files)"
rm -f "$LIBS/libRunnerCapture.a"  # an archive keeps members of files since removed
"$SWIFTC" "${FLAGS[@]}" -module-name RunnerCapture -emit-library -static -emit-module \
    -emit-module-path "$MODULES/RunnerCapture.swiftmodule" -o "$LIBS/libRunnerCapture.a" "${capture_sources[@]}"

# CCryptoShim, the OpenSSL calls of the HTTPDNS auth schemes (its module map is in include/,
# so the -I above finds the module); the HTTPDNS targets link it and libcrypto.
echo "fuzz/build.sh: CCryptoShim"
"$CLANG" -fsanitize=fuzzer-no-link,address -O2 -g -I Sources/CCryptoShim/include \
    -c Sources/CCryptoShim/shim.c -o "$LIBS/CCryptoShim.o"
rm -f "$LIBS/libCCryptoShim.a"
ar rcs "$LIBS/libCCryptoShim.a" "$LIBS/CCryptoShim.o"

# The HTTPDNS wire formats: the RunnerHTTPDNS target (pure functions of bytes), built as that
# module with testing enabled, so the targets reach its internal parsers by `@testable import`,
# as its tests do.
# The DoH parser reads DNS messages through libresolv, via the CDNSShim C target; its queries
# are written by ldns (the CLDNS module map; the targets link libldns).
clang -fsanitize=fuzzer-no-link,address "$OPT" -g -c Sources/CDNSShim/shim.c -I Sources/CDNSShim/include \
    -o "$OUT/cdnsshim.o"
ar rcs "$LIBS/libCDNSShim.a" "$OUT/cdnsshim.o"
mapfile -t httpdns_sources < <(find Sources/RunnerHTTPDNS -name '*.swift' | sort)
echo "fuzz/build.sh: RunnerHTTPDNS (${#httpdns_sources[@]} files)"
rm -f "$LIBS/libRunnerHTTPDNS.a"  # an archive keeps members of files since removed
"$SWIFTC" "${FLAGS[@]}" -enable-testing -module-name RunnerHTTPDNS -emit-library -static -emit-module \
    -emit-module-path "$MODULES/RunnerHTTPDNS.swiftmodule" -o "$LIBS/libRunnerHTTPDNS.a" "${httpdns_sources[@]}"

# The targets: plan, one per app trust file format (with fuzz/targets/AppTrustSupport/), and one per HTTPDNS format, each compiled with the harnesses of
# fuzz/targets/Support/ (HTTPDNSHarness for the text and JSON formats, DoHHarness for DNS messages).
# lld: gold warns about every ASan symbol it cannot export.
build_target() {
    local name=$1; shift
    echo "fuzz/build.sh: target $name"
    local module
    module=Fuzz$(echo "$name" | tr -cd 'A-Za-z0-9')
    "$SWIFTC" "${FLAGS[@]}" -use-ld=lld -module-name "$module" -o "$BIN/$name" "$@" -L "$LIBS" -lyaml
}
# The plan parser asks OpenSSL whether a `tls:` cipher, suite or group name exists.
mapfile -t support_sources < <(find fuzz/targets/Support -name '*.swift' | sort)
mapfile -t apptrust_support_sources < <(find fuzz/targets/AppTrustSupport -name '*.swift' | sort)
for target in "${targets[@]}"; do
    case $target in
    plan)
        # The plan parser asks OpenSSL whether a `tls:` cipher, suite or group name exists.
        build_target plan fuzz/targets/plan.swift -lRunnerPlan -lRunnerAppTrust -lRunnerVocabulary -lCCryptoShim -lssl -lcrypto ;;
    nsc | info-plist)
        build_target "$target" "fuzz/targets/$target.swift" "${apptrust_support_sources[@]}" -lRunnerAppTrust -lRunnerVocabulary ;;
    har)
        build_target har fuzz/targets/har.swift -lRunnerCapture -lRunnerPlan -lRunnerAppTrust -lRunnerVocabulary -lCCryptoShim -lssl -lcrypto ;;
    yaml-writer)
        # The writer's output read back by the plan reader (libyaml); nothing of OpenSSL is reached,
        # but RunnerPlan's archive holds `tls:`'s name checks, so it is linked as for `plan`.
        build_target yaml-writer fuzz/targets/yaml-writer.swift -lRunnerPlan -lRunnerAppTrust -lRunnerVocabulary -lCCryptoShim -lssl -lcrypto ;;
    *)
        build_target "$target" "fuzz/targets/$target.swift" "${support_sources[@]}" \
            -lRunnerHTTPDNS -lRunnerPlan -lRunnerAppTrust -lRunnerVocabulary -lCCryptoShim -lssl -lcrypto -lCDNSShim -lresolv -lldns ;;
    esac
done
echo "fuzz/build.sh: built $(ls "$BIN" | tr '\n' ' ')into $BIN"
