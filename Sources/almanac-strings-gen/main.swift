import AlmanacCatalogs
import AlmanacCore
import Foundation

// The tool behind the StringAccessors build plugin:
//   almanac-strings-gen --output Strings.swift [--enum-name L10n] [--source-language en] [--access public] CATALOG…
// Catalogs are .strings and .stringsdict files in .lproj folders, or .xcstrings files; files of
// the same table (Localizable) merge.

var output: String?
var generator = AccessorGenerator()
var files: [String] = []
var arguments = Array(CommandLine.arguments.dropFirst())[...]
while let argument = arguments.popFirst() {
    switch argument {
    case "--output": output = arguments.popFirst()
    case "--enum-name": generator.enumName = arguments.popFirst() ?? generator.enumName
    case "--source-language": generator.sourceLanguage = arguments.popFirst() ?? generator.sourceLanguage
    case "--access": generator.access = arguments.popFirst() ?? generator.access
    case "--bundle": generator.bundle = arguments.popFirst() ?? generator.bundle
    default: files.append(argument)
    }
}
guard let output else {
    FileHandle.standardError.write(Data("usage: almanac-strings-gen --output FILE [--enum-name NAME] CATALOG…\n".utf8))
    exit(2)
}

// file:line: error: … is what Xcode and SwiftPM show as a located build error.
let (tables, diagnostics) = generator.tables(from: files)
for diagnostic in diagnostics {
    FileHandle.standardError.write(Data((diagnostic.rendered(in: .english) + "\n").utf8))
}
if diagnostics.hasErrors { exit(1) }
let text = generator.generate(tables: tables)
// Only touch the file when it changes, so dependents are not rebuilt for nothing.
if (try? String(contentsOfFile: output, encoding: .utf8)) != text {
    do { try text.write(toFile: output, atomically: true, encoding: .utf8) } catch {
        FileHandle.standardError.write(Data("error: cannot write \(output): \(error)\n".utf8))
        exit(1)
    }
}
