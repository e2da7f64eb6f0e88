// swift-tools-version: 6.1
import PackageDescription

// Fuzzing lives in its own package, like the benchmarks: it is built with sanitizers, which the
// main package's users never need. Run it with Scripts/fuzz.py (see the Limits and security article).
//
//   swift build -c release --package-path Fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
//   ALMANAC_FUZZ_CODEC=ics Fuzz/.build/release/almanac-fuzz CORPUS_DIR -max_total_time=600
let package = Package(
    name: "AlmanacFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Almanac", path: "..")],
    targets: [
        .executableTarget(
            name: "almanac-fuzz",
            dependencies: [
                .product(name: "AlmanacCLI", package: "Almanac"),
                .product(name: "AlmanacKit", package: "Almanac"),
                .product(name: "AlmanacCalendar", package: "Almanac"),
                .product(name: "AlmanacCore", package: "Almanac"),
                .product(name: "AlmanacICU", package: "Almanac"),
                .product(name: "AlmanacICalendar", package: "Almanac"),
                .product(name: "AlmanacAndroid", package: "Almanac"),
            ]),
    ]
)
