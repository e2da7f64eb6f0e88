// swift-tools-version: 6.1
import PackageDescription

// 知习's strings as an app-side package that uses Almanac's two SwiftPM plugins. Its development
// language is Simplified Chinese and its accessors are `ZXStrings`, as the app names them: both
// come from Sources/StudyKit/almanac-strings.json, which both plugins read.
//   swift build                          generates ZXStrings from Resources/*.lproj (StringAccessors)
//   swift package audit-catalogs         checks the catalogs against zh-Hans, and the sources (AuditCatalogs)
//   swift package --allow-writing-to-package-directory fix-catalogs
//                                        fixes what has one right answer in place, then checks (FixCatalogs)
let package = Package(
    name: "StudyKit",
    defaultLocalization: "zh-Hans",
    platforms: [.macOS(.v15)],
    products: [.library(name: "StudyKit", targets: ["StudyKit"])],
    dependencies: [.package(name: "Almanac", path: "../..")],
    targets: [
        .target(
            name: "StudyKit",
            exclude: ["almanac-strings.json"],
            resources: [.process("Resources")],
            plugins: [.plugin(name: "StringAccessors", package: "Almanac")]
        ),
        .testTarget(name: "StudyKitTests", dependencies: ["StudyKit"]),
    ]
)
