// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so that building and testing Almanac stays light.
// Run them with: python3 Benchmarks/compare.py (see Benchmarks/README.md).
let package = Package(
    name: "AlmanacBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Almanac", path: "..")],
    targets: [
        .executableTarget(
            name: "almanac-bench",
            dependencies: [
                .product(name: "AlmanacCSV", package: "Almanac"),
                .product(name: "AlmanacCore", package: "Almanac"),
                .product(name: "AlmanacICU", package: "Almanac"),
                .product(name: "AlmanacICalendar", package: "Almanac"),
                .product(name: "AlmanacCalendar", package: "Almanac"),
                .product(name: "AlmanacKit", package: "Almanac"),
            ]),
    ]
)
