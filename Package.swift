// swift-tools-version:6.0
import PackageDescription

/// Release builds optimise across the runner's modules (a result's work crosses six of them).
let crossModule: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

let package = Package(
    name: "runner",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "runner", targets: ["runner"]),
        .executable(name: "runner-lab", targets: ["runner-lab"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.29.0"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.30.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.0"..<"5.0.0"),
        // The lab's gRPC servers (issue 48); only RunnerLab and its tests link them.
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.0"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.9.0"),
    ],
    targets: [
        // C facades: libyaml, libcurl, and the shim for what Swift cannot call directly.
        .systemLibrary(
            name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(
            name: "CCurlShim", dependencies: ["CCurl"],
            linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]),
        // DNS messages for the lab's RFC 8484 endpoint (Debian's libldns-dev names its pkg-config file ldns.pc).
        .systemLibrary(name: "CLDNS", pkgConfig: "ldns", providers: [.apt(["libldns-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // OpenSSL's MD5, DES-EDE3 and AES-128-CBC for the HTTPDNS auth schemes (plain C types only).
        .target(name: "CCryptoShim", linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]),

        // The data flow: Plan → (Resolve → Strategy → Verdict, in Engine) → Transport → Report.
        // The words every layer shares (a strategy, an HTTP version, a header, a certificate,
        // timings, a transfer error): one type per concept, no conversions between layers.
        .target(name: "RunnerVocabulary", swiftSettings: crossModule),
        .target(name: "RunnerPlan", dependencies: ["CYAML", "CCryptoShim", "RunnerVocabulary", "RunnerAppTrust"], swiftSettings: crossModule),
        .target(name: "RunnerResults", dependencies: ["RunnerVocabulary", "RunnerAppTrust"], swiftSettings: crossModule),
        .target(name: "RunnerTransport", dependencies: ["CCurlShim", "RunnerVocabulary"], swiftSettings: crossModule),
        // DNS messages (DoH) through glibc's libresolv.
        .target(name: "CDNSShim", linkerSettings: [.linkedLibrary("resolv")]),
        // The HTTPDNS wire formats: query URLs, auth schemes and strict answer parsers, pure
        // functions of bytes (the fuzz targets build them alone).
        .target(name: "RunnerHTTPDNS", dependencies: ["RunnerVocabulary", "RunnerPlan", "CCryptoShim", "CDNSShim", "CLDNS"], swiftSettings: crossModule),
        // The state file: what the HTTPDNS services returned, remembered across runs (SQLite).
        .target(name: "RunnerState", dependencies: ["CSQLite", "RunnerResults"], swiftSettings: crossModule),
        .target(name: "RunnerEngine", dependencies: ["RunnerVocabulary", "RunnerPlan", "RunnerHTTPDNS", "RunnerTransport", "RunnerResults", "RunnerState"], swiftSettings: crossModule),
        .target(name: "RunnerReport", dependencies: ["RunnerVocabulary", "RunnerResults"], swiftSettings: crossModule),
        .target(name: "RunnerAppTrust", dependencies: ["RunnerVocabulary"], swiftSettings: crossModule),
        // Captures of an app's traffic (HAR), read as the capture tools write them, for `init --har`.
        .target(name: "RunnerCapture", dependencies: ["RunnerVocabulary", "RunnerPlan"], swiftSettings: crossModule),
        // `serve`: the cycle loop and the SwiftNIO HTTP server around its latest cycle, a library
        // with its own tests; the command passes in what it read from the command line.
        .target(
            name: "RunnerServe",
            dependencies: [
                "RunnerEngine", "RunnerReport", "RunnerPlan", "RunnerResults", "RunnerState",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        .executableTarget(
            name: "runner",
            dependencies: [
                "RunnerEngine", "RunnerReport", "RunnerPlan", "RunnerResults", "RunnerVocabulary", "RunnerServe", "RunnerState", "RunnerCapture",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // The lab: real TLS vhosts on loopback, for the tests and the demo.
        .target(
            name: "RunnerLab",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                // An RSA leaf: the only kind a server with a non-forward-secret (RSA key exchange) suite can use.
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                // DNSPod D+'s encrypted interface: DES-EDE3-ECB and AES-128-CBC (swift-crypto has no
                // DES) through the runner's own OpenSSL facade, and its hex.
                "RunnerHTTPDNS",
                "CLDNS",
                // gRPC health checks by IP direct (issue 48): grpc-swift's core and its NIO HTTP/2
                // transport (the Posix variant: the umbrella product only adds Network.framework's).
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport"),
            ]),
        .executableTarget(
            name: "runner-lab",
            dependencies: [
                "RunnerLab", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // make bench's driver of the state file at issue 34's scale (bench/state.sh).
        .executableTarget(name: "state-bench", dependencies: ["RunnerState", "RunnerResults"], path: "bench/StateBench"),

        .target(name: "PlanFixtures", path: "Tests/PlanFixtures"),
        .testTarget(name: "RunnerPlanTests", dependencies: ["RunnerVocabulary", "RunnerPlan", "PlanFixtures"]),
        .testTarget(name: "RunnerReportTests", dependencies: ["RunnerVocabulary", "RunnerReport", "RunnerResults", "RunnerAppTrust", "PlanFixtures"]),
        .testTarget(
            name: "RunnerLabTests",
            dependencies: [
                "RunnerLab", "PlanFixtures",
                // The gRPC tests call the lab with grpc-swift's own client.
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport"),
            ]),
        .target(name: "LabTestSupport", dependencies: ["RunnerLab", "PlanFixtures"], path: "Tests/LabTestSupport"),
        .testTarget(name: "RunnerTransportTests", dependencies: ["RunnerVocabulary", "RunnerTransport", "CCurlShim", "RunnerLab", "LabTestSupport"]),
        .testTarget(
            name: "RunnerEngineTests",
            dependencies: [
                "RunnerVocabulary", "RunnerEngine", "RunnerPlan", "RunnerResults", "RunnerTransport", "RunnerHTTPDNS",
                "RunnerLab", "LabTestSupport", "PlanFixtures",
            ]),
        .testTarget(name: "RunnerHTTPDNSTests", dependencies: ["RunnerHTTPDNS", "RunnerPlan", "PlanFixtures"]),
        .testTarget(name: "RunnerStateTests", dependencies: ["RunnerState", "RunnerResults"]),
        .testTarget(name: "RunnerAppTrustTests", dependencies: ["RunnerAppTrust"], exclude: ["Fixtures"]),
        // MitmproxyHARTests: a real mitmproxy capture of the lab (LabTestSupport's MitmproxyCapture).
        .testTarget(
            name: "RunnerCaptureTests",
            dependencies: [
                "RunnerCapture", "RunnerPlan", "RunnerLab", "LabTestSupport", "PlanFixtures",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            // mitmproxy-lab.har: one run's capture, read by path.
            exclude: ["Fixtures"]),
        .testTarget(name: "RunnerCLITests", dependencies: ["RunnerLab", "LabTestSupport", "PlanFixtures", "RunnerState", "RunnerResults"]),
        // `serve`'s HTTP server logic (connection state, head scan, cap, descriptor budget, routes)
        // without sockets, and its cycles against the in-process lab.
        .testTarget(
            name: "RunnerServeTests",
            dependencies: [
                "RunnerServe", "RunnerEngine", "RunnerPlan", "RunnerReport", "RunnerLab", "LabTestSupport", "PlanFixtures",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]),
    ]
)
