import AlmanacStrings
import ArgumentParser
import Foundation

/// The tool behind the StringAccessors build plugin: typed Swift accessors for a target's
/// catalogs. Settings come from the options, else from a configuration file (the plugin passes
/// the target's `almanac-strings.json`), else the defaults (`L10n`, `en`, `public`, `.module`).
@main
struct StringsGen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "almanac-strings-gen",
        abstract: "Generate typed Swift accessors for string catalogs (.strings, .stringsdict, .xcstrings).",
        discussion: """
            Catalogs are .strings and .stringsdict files in .lproj folders, or .xcstrings files; files of the same \
            table (Localizable) merge. A configuration file is JSON: {"enumName": "ZXStrings", "sourceLanguage": \
            "zh-Hans", "tables": ["Localizable"], "access": "public", "bundle": ".module"}; every field may be left out.
            """)

    @Option(help: ArgumentHelp("The Swift file to write (left untouched when nothing changed).", valueName: "FILE"))
    var output: String
    @Option(help: ArgumentHelp("A JSON configuration file (see above); options given here win.", valueName: "FILE"))
    var config: String?
    @Option(name: .customLong("enum-name"), help: ArgumentHelp("The top-level enum (default L10n).", valueName: "NAME"))
    var enumName: String?
    @Option(name: .customLong("source-language"),
            help: ArgumentHelp("The development language, whose values give parameters and doc comments (default en).", valueName: "LOCALE"))
    var sourceLanguage: String?
    @Option(help: ArgumentHelp("The accessors' access level: public, package or internal (default public).", valueName: "LEVEL"))
    var access: String?
    @Option(help: ArgumentHelp("The bundle expression the lookups use (default .module).", valueName: "EXPR"))
    var bundle: String?
    @Option(help: ArgumentHelp("Generate accessors for this table only (repeatable; default every table).", valueName: "NAME"))
    var table: [String] = []
    @Argument(help: ArgumentHelp("The catalog files.", valueName: "CATALOG"))
    var catalogs: [String]

    /// What a configuration file may say.
    struct Settings: Decodable {
        var enumName: String?
        var sourceLanguage: String?
        var tables: [String]?
        var access: String?
        var bundle: String?
    }

    func validate() throws {
        if let access, !["public", "package", "internal"].contains(access) {
            throw ValidationError("--access must be public, package or internal, not \(access).")
        }
        if let enumName, !enumName.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) || enumName.first?.isNumber == true {
            throw ValidationError("--enum-name must be a Swift type name, not \(enumName).")
        }
    }

    func run() throws {
        do { try generate() } catch let failure as Failure {
            // Printed as it is: `file: error: …` is what Xcode and SwiftPM show as a located error.
            FileHandle.standardError.write(Data((failure.description + "\n").utf8))
            throw ExitCode.failure
        }
    }

    func generate() throws {
        var settings = Settings()
        if let config {
            guard let data = FileManager.default.contents(atPath: config) else {
                throw Failure("\(config): error: cannot read the configuration file")
            }
            do { settings = try JSONDecoder().decode(Settings.self, from: data) } catch {
                throw Failure("\(config): error: not a configuration file: \(Self.describe(error)). Expected {\"enumName\": \"ZXStrings\", \"sourceLanguage\": \"zh-Hans\", \"tables\": [\"Localizable\"]}")
            }
        }
        var generator = AccessorGenerator()
        generator.enumName = enumName ?? settings.enumName ?? generator.enumName
        generator.sourceLanguage = sourceLanguage ?? settings.sourceLanguage ?? generator.sourceLanguage
        generator.access = access ?? settings.access ?? generator.access
        generator.bundle = bundle ?? settings.bundle ?? generator.bundle
        let tables = table.isEmpty ? settings.tables ?? [] : table
        let files = tables.isEmpty ? catalogs : catalogs.filter { tables.contains(CatalogPath.table(ofPath: $0) ?? "") }

        let (read, diagnostics) = generator.tables(from: files)
        for diagnostic in diagnostics {
            FileHandle.standardError.write(Data((diagnostic.rendered(in: .english) + "\n").utf8))
        }
        if diagnostics.hasErrors { throw ExitCode(1) }
        for name in tables where !read.contains(where: { $0.name == name }) {
            throw Failure("\(config ?? "almanac-strings-gen"): error: no catalog of the table \(name) among the files given")
        }
        let text = generator.generate(tables: read)
        // Only touch the file when it changes, so dependents are not rebuilt for nothing.
        if (try? String(contentsOfFile: output, encoding: .utf8)) != text {
            do { try text.write(toFile: output, atomically: true, encoding: .utf8) } catch {
                throw Failure("\(output): error: cannot write: \(error.localizedDescription)")
            }
        }
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context), DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return (path.isEmpty ? "" : "\(path): ") + context.debugDescription.trimmingCharacters(in: CharacterSet(charactersIn: "."))
        default:
            return error.localizedDescription
        }
    }

    /// A failure printed as it is, with exit status 1.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
