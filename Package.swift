// swift-tools-version:6.1
import PackageDescription

/// Settings every Swift target shares: Swift 6 mode plus the upcoming features
/// that make imports and existentials explicit.
///
/// Three traits change plein's own modules and nothing else, so a build with a trait reuses every
/// dependency a build without it compiled (and the other way round): on 2 cores the dependencies
/// are about three quarters of a clean release build's CPU.
/// - `Testing` (`make test`): the tests run against a release build, with `@testable` imports.
/// - `Fuzzing` (`scripts/fuzz`): libFuzzer's coverage in plein's modules, and its driver.
/// - `Unoptimized`: plein's modules compiled without optimization (`make test` builds its 30-second
///   fuzzers so: its fuzz build went from 103 to 48 s).
/// - `Sanitize` (`scripts/sanitize`, `make sanitize`): plein's modules with AddressSanitizer (and
///   its C shims with UndefinedBehaviorSanitizer too). Its runtime is linked as a shared library
///   (`-shared-libsan`; the static one would be hidden by the static Swift runtime's `--exclude-libs
///   ALL`), so it checks every allocation of libvips, SQLite, cmark-gfm and the rest too, which are
///   not recompiled. (ThreadSanitizer needs every module compiled with it and the shared Swift
///   runtime: `scripts/sanitize thread` makes a debug build of its own.)
let plain: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .unsafeFlags(["-enable-testing"], .when(traits: ["Testing"])),
    .unsafeFlags(["-sanitize=fuzzer"], .when(traits: ["Fuzzing"])),
    .unsafeFlags(["-Onone"], .when(traits: ["Unoptimized"])),
    .define("FUZZING", .when(traits: ["Fuzzing"])),
]
let strict: [SwiftSetting] = plain + [
    .unsafeFlags(["-sanitize=address"], .when(traits: ["Sanitize"])),
]
/// The same sanitizers for plein's C shims.
let sanitizeC: [CSetting] = [
    .unsafeFlags(["-fsanitize=address,undefined", "-fno-omit-frame-pointer"], .when(traits: ["Sanitize"])),
]
/// An executable with sanitized modules links their runtime, found beside it (`scripts/sanitize`
/// copies it there).
let sanitizeLink: [LinkerSetting] = [
    .unsafeFlags(["-sanitize=address", "-Xclang-linker", "-shared-libsan", "-Xlinker", "-rpath=$ORIGIN"], .when(traits: ["Sanitize"])),
]
/// A fuzz target: libFuzzer's driver calls it, so it has no top-level code when fuzzing.
let fuzzTarget: [SwiftSetting] = strict + [.unsafeFlags(["-parse-as-library"], .when(traits: ["Fuzzing"]))]
/// The tests and their support: compiled without optimization (they run in seconds either way, and
/// are compiled in about half the time), against plein's optimized modules.
let testSettings: [SwiftSetting] = strict + [.unsafeFlags(["-Onone"])]
let fuzzLink: [LinkerSetting] = [.unsafeFlags(["-sanitize=fuzzer"], .when(traits: ["Fuzzing"]))] + sanitizeLink

/// The release binary carries Swift's runtime and Foundation (what `--static-swift-stdlib` does),
/// so the Debian package runs where Swift is not installed. Done here, at the link, rather than
/// with that flag: the flag changes every module's compile command, the dependencies' included,
/// and the test build (which cannot use it: Swift Testing has no static library) would share
/// nothing with the release binary. The libraries are the ones the static Foundation names
/// (Swift 6.3's `swift_static`); `make dist` checks the binary needs no Swift library.
let staticRuntime: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-static-stdlib", "-lFoundation", "-lFoundationInternationalization", "-lFoundationEssentials", "-lCoreFoundation",
            "-l_FoundationCShims", "-l_FoundationCollections", "-l_FoundationICU", "-lswiftSynchronization", "-lstdc++", "-lm",
        ],
        .when(configuration: .release)
    ),
] + sanitizeLink

// Linux only: the watcher uses inotify, the writer renameat2 and /proc, images Debian's libvips.
let package = Package(
    name: "plein",
    products: [
        .executable(name: "plein", targets: ["plein"]),
    ],
    traits: [
        .trait(name: "Testing", description: "plein's modules with @testable imports allowed: make test's release build"),
        .trait(name: "Fuzzing", description: "plein's modules with libFuzzer's coverage: scripts/fuzz"),
        .trait(name: "Unoptimized", description: "plein's modules without optimization: make test's fuzzers"),
        .trait(name: "Sanitize", description: "plein's modules with AddressSanitizer and UndefinedBehaviorSanitizer: scripts/sanitize"),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
        // The dev server: SwiftNIO's bounded HTTP/1.1 parser, idle timeouts and accept back-off.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", exact: "2.8.1"),
        // What the dev server names of Hummingbird's own dependencies (the versions it resolves to).
        .package(url: "https://github.com/apple/swift-nio.git", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-http-types.git", exact: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
        // The build store: what one build keeps for the next, in SQLite.
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CCmarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
        ),
        // Output text: escaping for HTML, XML and JSON, and writers for XML and JSON. Depends on nothing.
        .target(name: "PleinText", swiftSettings: strict),
        .target(name: "PleinMarkdown", dependencies: ["CCmarkGFM", "PleinText"], swiftSettings: strict),
        // Records, time, diagnostics, schemas and content paths: what every stage shares.
        .target(name: "PleinCore", dependencies: ["PleinText", .product(name: "Crypto", package: "swift-crypto")], swiftSettings: strict),
        // The stages: load (files → records), check (rules between records), model (records → the site model).
        .target(name: "PleinLoad", dependencies: ["PleinCore", "Yams"], swiftSettings: strict),
        .target(name: "PleinCheck", dependencies: ["PleinCore", "PleinText"], swiftSettings: strict),
        .target(name: "PleinModel", dependencies: ["PleinCore"], swiftSettings: strict),
        .target(name: "PleinMustache", dependencies: ["PleinText"], swiftSettings: strict),
        .target(name: "PleinRender", dependencies: ["PleinText", "PleinCore", "PleinModel", "PleinMarkdown", "PleinMustache"], swiftSettings: strict),
        // The default theme inside the binary: `templates/`, embedded at build time.
        // (It runs during the build: never with a sanitizer.)
        .executableTarget(name: "plein-embed-theme", swiftSettings: plain),
        .plugin(name: "EmbedTheme", capability: .buildTool(), dependencies: ["plein-embed-theme"]),
        .target(name: "PleinTheme", swiftSettings: strict, plugins: ["EmbedTheme"]),
        // libvips' headers only (Debian's libvips-dev): the shim opens the library when the first
        // image needs it (dlopen), so plein does not load it and its hundred libraries at start.
        .target(
            name: "CVipsShim",
            cSettings: [.unsafeFlags(["-I/usr/include/glib-2.0"] + ["x86_64", "aarch64"].map { "-I/usr/lib/\($0)-linux-gnu/glib-2.0/include" })] + sanitizeC
        ),
        .target(name: "PleinImages", dependencies: ["PleinCore", "CVipsShim"], swiftSettings: strict),
        // libc calls Swift cannot reach, and zlib's gzip (for the search index's files).
        .target(name: "CPleinSystem", cSettings: sanitizeC, linkerSettings: [.linkedLibrary("z")]),
        .target(
            name: "PleinBuild",
            dependencies: ["PleinText", "PleinCore", "PleinLoad", "PleinCheck", "PleinModel", "PleinMarkdown", "PleinMustache", "PleinRender", "PleinImages", "PleinTheme", "CPleinSystem",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // PBKDF2 for members-only groups' keys (`SealingStage`); AES-GCM and HKDF are in Crypto.
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        // `plein new`: new sites, themes, CI and records, written where plein reads them.
        .target(name: "PleinScaffold", dependencies: ["PleinText", "PleinCore", "PleinLoad", "PleinCheck", "PleinTheme", "Yams"], swiftSettings: strict),
        .target(
            name: "PleinServer",
            dependencies: [
                "PleinBuild", "PleinRender", "PleinCore", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdCore", package: "hummingbird"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "PleinCLI",
            dependencies: [
                "PleinBuild", "PleinScaffold", "PleinServer", "PleinText", "PleinCore", "PleinModel", "PleinRender", "PleinTheme", "CPleinSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(name: "plein", dependencies: ["PleinCLI"], swiftSettings: strict, linkerSettings: staticRuntime),
        // `make bench`: the incremental rebuild of the serve path, measured in process.
        .executableTarget(name: "plein-bench", dependencies: ["PleinBuild", "PleinText"], swiftSettings: strict, linkerSettings: sanitizeLink),
        // `make fuzz`: libFuzzer targets over what the fuzzers run (PleinFuzzing).
        .target(name: "PleinFuzzing", dependencies: ["PleinCore", "PleinLoad", "PleinCheck", "PleinModel", "PleinMarkdown", "PleinText"], swiftSettings: strict),
        .executableTarget(name: "plein-fuzz-content", dependencies: ["PleinFuzzing"], path: "Fuzz/content", swiftSettings: fuzzTarget, linkerSettings: fuzzLink),
        .executableTarget(name: "plein-fuzz-markdown", dependencies: ["PleinFuzzing"], path: "Fuzz/markdown", swiftSettings: fuzzTarget, linkerSettings: fuzzLink),
        .executableTarget(name: "plein-fuzz-seeds", dependencies: ["PleinFuzzing"], swiftSettings: strict, linkerSettings: sanitizeLink),
        .target(name: "PleinTestSupport", dependencies: ["PleinCore", "PleinLoad", "PleinCheck"], path: "Tests/PleinTestSupport", swiftSettings: testSettings),
        .testTarget(name: "PleinMarkdownTests", dependencies: ["PleinMarkdown", "PleinText"], swiftSettings: testSettings),
        .testTarget(
            name: "PleinCoreTests", dependencies: ["PleinCore", "PleinLoad", "PleinCheck", "PleinModel", "PleinText", "PleinTestSupport"],
            exclude: ["Fixtures"], swiftSettings: testSettings
        ),
        .testTarget(name: "PleinMustacheTests", dependencies: ["PleinMustache", "PleinText"], exclude: ["Spec"], swiftSettings: testSettings),
        .testTarget(name: "PleinRenderTests", dependencies: ["PleinRender", "PleinBuild", "PleinMustache", "PleinText", "PleinModel"], swiftSettings: testSettings),
        .testTarget(name: "PleinFuzzingTests", dependencies: ["PleinFuzzing", "PleinCore", "PleinLoad", "PleinTestSupport"], exclude: ["Regressions"], swiftSettings: testSettings),
        .testTarget(name: "PleinServerTests", dependencies: ["PleinServer"], swiftSettings: testSettings),
        .testTarget(name: "PleinImagesTests", dependencies: ["PleinImages"], exclude: ["Fixtures"], swiftSettings: testSettings),
        .testTarget(
            name: "PleinBuildTests",
            dependencies: ["PleinBuild", "PleinScaffold", "PleinTestSupport", "PleinLoad", "PleinCheck", "PleinModel", "PleinRender",
                           .product(name: "GRDB", package: "GRDB.swift")],
            exclude: ["Snapshots"],
            swiftSettings: testSettings
        ),
    ]
)
