// swift-tools-version: 6.1
import PackageDescription

// Almanac: moves and localizes the data of the Retire Time, JellySave, 知习 and Reminders apps.
// The layout and the reasons behind the C shims are in ARCHITECTURE.md.
let package = Package(
    name: "Almanac",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "almanac", targets: ["almanac"]),
        .executable(name: "almanac-codec-android", targets: ["almanac-codec-android"]),
        .executable(name: "almanac-strings-gen", targets: ["almanac-strings-gen"]),
        .plugin(name: "StringAccessors", targets: ["StringAccessors"]),
        .plugin(name: "AuditCatalogs", targets: ["AuditCatalogs"]),
        .plugin(name: "FixCatalogs", targets: ["FixCatalogs"]),
        .library(name: "AlmanacCore", targets: ["AlmanacCore"]),
        .library(name: "AlmanacICU", targets: ["AlmanacICU"]),
        .library(name: "AlmanacStrings", targets: ["AlmanacStrings"]),
        .library(name: "AlmanacXML", targets: ["AlmanacXML"]),
        .library(name: "AlmanacCalendar", targets: ["AlmanacCalendar"]),
        .library(name: "AlmanacICalendar", targets: ["AlmanacICalendar"]),
        .library(name: "AlmanacCSV", targets: ["AlmanacCSV"]),
        .library(name: "AlmanacXLSX", targets: ["AlmanacXLSX"]),
        .library(name: "AlmanacCatalogs", targets: ["AlmanacCatalogs"]),
        .library(name: "AlmanacAudit", targets: ["AlmanacAudit"]),
        .library(name: "AlmanacBackups", targets: ["AlmanacBackups"]),
        .library(name: "AlmanacAndroid", targets: ["AlmanacAndroid"]),
        .library(name: "AlmanacKit", targets: ["AlmanacKit"]),
        .library(name: "AlmanacCLI", targets: ["AlmanacCLI"]),
        .library(name: "AlmanacTestSupport", targets: ["AlmanacTestSupport"]),
    ],
    traits: [
        // Off by default: zlib compresses and inflates zip entries (XLSX), with nothing to install.
        .trait(
            name: "ISAL",
            description: "Compress and inflate zip entries (XLSX workbooks) with Intel's ISA-L instead of zlib: a workbook written 1.2 to 1.3 times as fast. Needs libisal-dev (Debian, Ubuntu) or isa-l (Homebrew)."),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // `swift package generate-documentation`: the DocC catalogs (AlmanacKit's guides, AlmanacCore's
        // codec articles) built with their symbols; a command plugin, linked into nothing.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // System libraries: flags only. Nothing in Swift imports these directly.
        .systemLibrary(
            name: "CICU",
            pkgConfig: "icu-i18n",
            providers: [.apt(["libicu-dev"]), .brew(["icu4c"])]
        ),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        // zlib, for the zip container of XLSX workbooks (raw DEFLATE both ways, CRC-32): among the
        // Swift toolchain's own prerequisites on Linux, in the macOS SDK. Plain C headers, which
        // Swift imports directly (in AlmanacZip only).
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // ISA-L's igzip, in zlib's place with the ISAL trait: a whole workbook written 1.2 to 1.3
        // times as fast and 6 % smaller, read about as fast (Benchmarks/README.md, "Zip compression").
        .systemLibrary(
            name: "CISAL",
            pkgConfig: "libisal",
            providers: [.apt(["libisal-dev"]), .brew(["isa-l"])]
        ),
        // C wrappers whose public headers expose plain C types only, so Swift never sees ICU's or
        // libxml2's headers (they clash with the ICU that Foundation bundles).
        .target(name: "CICUShim", dependencies: ["CICU"]),
        .target(name: "CXMLShim", dependencies: ["CLibXML2"]),

        // The version string a release is built with (Scripts/release.sh passes the git tag); C so
        // that a build flag can carry it, which a Swift condition cannot.
        .target(name: "CAlmanacVersion"),
        // The byte tools every reader and writer shares (scanning, UTF-8, digits, the one JSON
        // writer): the only module whose code works with pointers for speed. No dependencies.
        .target(name: "AlmanacBytes"),
        // Below everything else, with no system library: diagnostics and messages, the catalog model,
        // placeholders and plural rules, reading .strings/.stringsdict/.xcstrings, and the accessor
        // generator (what the StringAccessors plugin's tool needs, built on a Mac with nothing installed).
        .target(name: "AlmanacStrings", dependencies: ["AlmanacBytes"]),
        .target(name: "AlmanacICU", dependencies: ["CICUShim", "AlmanacStrings"]),
        .target(name: "AlmanacXML", dependencies: ["CXMLShim", "AlmanacBytes"]),
        // The zip container (streamed writing; reading with size and ratio limits) over zlib, or
        // ISA-L with the ISAL trait.
        .target(name: "AlmanacZip", dependencies: ["CZlib", .target(name: "CISAL", condition: .when(traits: ["ISAL"]))]),
        .target(name: "AlmanacCore", dependencies: ["AlmanacICU", "AlmanacStrings", "CAlmanacVersion"]),
        // The calendar engine: recurrence expansion (RFC 5545 + 7529), occurrences, zone clocks.
        // Below the codecs, which never depend on one another.
        .target(name: "AlmanacCalendar", dependencies: ["AlmanacCore", "AlmanacICU"]),
        .target(name: "AlmanacICalendar", dependencies: ["AlmanacCore", "AlmanacICU", "AlmanacXML", "AlmanacCalendar"]),
        .target(name: "AlmanacCSV", dependencies: ["AlmanacCore", "AlmanacICU", "AlmanacCalendar"]),
        // Office Open XML workbooks (SpreadsheetML): typed cells formatted for the reader's region.
        .target(name: "AlmanacXLSX", dependencies: ["AlmanacCore", "AlmanacICU", "AlmanacStrings", "AlmanacBytes", "AlmanacXML", "AlmanacZip"]),
        .target(name: "AlmanacCatalogs", dependencies: ["AlmanacCore", "AlmanacICU", "AlmanacXML"]),
        .target(name: "AlmanacAudit", dependencies: ["AlmanacCore", "AlmanacICU", "AlmanacCatalogs", "AlmanacXML"]),
        .target(name: "AlmanacBackups", dependencies: ["AlmanacCore", "AlmanacICU", "AlmanacCalendar"]),
        .target(name: "AlmanacAndroid", dependencies: ["AlmanacCore", "AlmanacICU", "AlmanacXML"]),
        // A codec shipped the way anyone can add one: a separate executable speaking the plugin protocol.
        .executableTarget(name: "almanac-codec-android", dependencies: ["AlmanacAndroid", "AlmanacCore"]),
        // Depends on AlmanacStrings and Foundation only: an app's Mac builds it with nothing installed.
        .executableTarget(name: "almanac-strings-gen", dependencies: [
            "AlmanacStrings", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .plugin(name: "StringAccessors", capability: .buildTool(), dependencies: ["almanac-strings-gen"]),
        .plugin(
            name: "AuditCatalogs",
            capability: .command(intent: .custom(verb: "audit-catalogs", description: "Check the package's string catalogs with almanac audit")),
            dependencies: ["almanac"]),
        // The fixing variant, opt in: it writes to the package, so SwiftPM asks first.
        .plugin(
            name: "FixCatalogs",
            capability: .command(
                intent: .custom(verb: "fix-catalogs", description: "Fix what has one right answer in the package's string catalogs, then check them"),
                permissions: [.writeToPackageDirectory(reason: "almanac audit --fix changes the catalogs' values in place")]),
            dependencies: ["almanac"]),
        // Every built-in format in one registry, and the conversion pipeline: what a Swift
        // program imports to convert as `almanac convert` does.
        .target(name: "AlmanacKit", dependencies: ["AlmanacCore", "AlmanacICalendar", "AlmanacCSV", "AlmanacXLSX", "AlmanacCatalogs", "AlmanacBackups"]),
        .target(
            name: "AlmanacCLI",
            dependencies: [
                "AlmanacCore", "AlmanacICU", "AlmanacCalendar", "AlmanacKit", "AlmanacCatalogs", "AlmanacAudit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "almanac", dependencies: ["AlmanacCLI"]),
        // Checks every codec must pass; codec packages outside Almanac can run them too.
        .target(name: "AlmanacTestSupport", dependencies: ["AlmanacCore"]),

        .testTarget(name: "AlmanacICUTests", dependencies: ["AlmanacICU", "CICUShim", "AlmanacTestSupport"], exclude: ["Fixtures"]),
        // libxml2's push parser, the reference XMLScanner is tested against: the tests' own, in no product.
        .target(name: "CXMLReference", dependencies: ["CXMLShim", "CLibXML2"], path: "Tests/Support/CXMLReference",
                cSettings: [.headerSearchPath("../../../Sources/CXMLShim")]),
        .testTarget(name: "AlmanacXMLTests", dependencies: ["AlmanacXML", "AlmanacBytes", "AlmanacTestSupport", "CXMLReference", "CXMLShim"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "AlmanacBytesTests", dependencies: ["AlmanacBytes", "AlmanacTestSupport"]),
        .testTarget(name: "AlmanacCoreTests", dependencies: ["AlmanacCore", "AlmanacTestSupport"]),
        .testTarget(name: "AlmanacCalendarTests", dependencies: ["AlmanacCalendar", "AlmanacTestSupport"]),
        .testTarget(name: "AlmanacICalendarTests", dependencies: ["AlmanacICalendar", "AlmanacCalendar", "AlmanacTestSupport"], exclude: ["Fixtures", "Peers"]),
        .testTarget(name: "AlmanacXLSXTests", dependencies: ["AlmanacXLSX", "AlmanacZip", "AlmanacKit", "AlmanacICU", "AlmanacBytes", "AlmanacTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "AlmanacCSVTests", dependencies: ["AlmanacCSV", "AlmanacTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "AlmanacCatalogsTests", dependencies: ["AlmanacCatalogs", "AlmanacTestSupport", "AlmanacXML"], exclude: ["Fixtures"]),
        .testTarget(name: "AlmanacAuditTests", dependencies: ["AlmanacAudit", "AlmanacCatalogs", "AlmanacTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "AlmanacBackupsTests", dependencies: ["AlmanacBackups", "AlmanacTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "AlmanacAndroidTests", dependencies: ["AlmanacAndroid", "AlmanacCatalogs", "AlmanacTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "AlmanacKitTests", dependencies: ["AlmanacKit", "AlmanacBackups", "AlmanacCalendar", "AlmanacICalendar", "AlmanacTestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "AlmanacCLITests", dependencies: ["AlmanacAudit", "AlmanacCLI", "AlmanacKit", "AlmanacTestSupport", "almanac-codec-android", "almanac-strings-gen"]),
    ]
)

for target in package.targets where target.type != .system && target.type != .plugin {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
