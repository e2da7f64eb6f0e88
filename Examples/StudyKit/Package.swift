// swift-tools-version: 6.1
import PackageDescription

// An app-side package that uses Almanac's two SwiftPM plugins:
//   swift build                          generates L10n accessors from Resources/*.lproj (StringAccessors)
//   swift package audit-catalogs         checks the catalogs and the sources with almanac audit (AuditCatalogs)
let package = Package(
    name: "StudyKit",
    defaultLocalization: "en",
    platforms: [.macOS(.v15)],
    products: [.library(name: "StudyKit", targets: ["StudyKit"])],
    dependencies: [.package(name: "Almanac", path: "../..")],
    targets: [
        .target(
            name: "StudyKit",
            resources: [.process("Resources")],
            plugins: [.plugin(name: "StringAccessors", package: "Almanac")]
        ),
        .testTarget(name: "StudyKitTests", dependencies: ["StudyKit"]),
    ]
)
