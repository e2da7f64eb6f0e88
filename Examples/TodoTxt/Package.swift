// swift-tools-version: 6.1
import PackageDescription

// A format Almanac does not ship — todo.txt — added without forking Almanac, both ways at once:
//   todo-almanac                 your own `almanac`, built on AlmanacCLI, with the codec compiled in
//   almanac-codec-todotxt        a codec plugin: any `almanac` finds it on PATH or ALMANAC_PLUGIN_PATH
// The steps are in Sources/AlmanacCore/AlmanacCore.docc/WritingACodec.md.
let package = Package(
    name: "TodoTxt",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TodoTxtCodec", targets: ["TodoTxtCodec"]),
        .executable(name: "todo-almanac", targets: ["todo-almanac"]),
        .executable(name: "almanac-codec-todotxt", targets: ["almanac-codec-todotxt"]),
    ],
    dependencies: [.package(name: "Almanac", path: "../..")],
    targets: [
        .target(name: "TodoTxtCodec", dependencies: [
            .product(name: "AlmanacCore", package: "Almanac"),
            .product(name: "AlmanacICU", package: "Almanac"),
        ]),
        .executableTarget(name: "todo-almanac", dependencies: [
            "TodoTxtCodec", .product(name: "AlmanacCLI", package: "Almanac"),
        ]),
        .executableTarget(name: "almanac-codec-todotxt", dependencies: [
            "TodoTxtCodec", .product(name: "AlmanacCore", package: "Almanac"),
        ]),
        .testTarget(name: "TodoTxtCodecTests", dependencies: [
            "TodoTxtCodec", .product(name: "AlmanacTestSupport", package: "Almanac"),
            .product(name: "AlmanacICalendar", package: "Almanac"),
        ], exclude: ["Fixtures"]),
    ]
)
