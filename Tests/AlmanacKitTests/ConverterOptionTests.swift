import AlmanacCore
import AlmanacKit
import Testing

/// Converters declare the options they read, as codecs do; a read of an undeclared option (a
/// side channel) fails here.
@Suite struct ConverterOptionTests {
    @Test func convertersReadOnlyDeclaredOptions() throws {
        let registry = BuiltInFormats.registry
        var checked = 0
        for converter in BuiltInFormats.converters {
            for (from, to) in converter.conversions {
                // Options of the formats that write the target model may be read on their behalf
                // (the formula guard of a CSV written for a region).
                let allowed = Set(converter.options.map(\.name) + registry.codecs.filter { $0.format.model == to }.flatMap(\.format.options).map(\.name))
                for codec in registry.codecs where codec.format.model == from && codec.format.canRead {
                    for example in codec.format.examples {
                        let reads = OptionReads()
                        let context = CodecContext(options: CodecOptions().recordingReads(into: reads))
                        guard let decoded = try? codec.decode(CodecInput(bytes: Array(example.input.utf8), fileName: "example"), context: context)
                        else { continue }
                        _ = try? converter.convert(decoded.document, to: to, context: context)
                        checked += 1
                        let undeclared = reads.names.subtracting(allowed).subtracting(codec.format.options.map(\.name))
                        #expect(undeclared.isEmpty, "\(type(of: converter)) \(from)→\(to) from \(codec.format.id): reads \(undeclared.sorted())")
                    }
                }
            }
        }
        #expect(checked > 10)
    }

    @Test func unknownOptionsAndValuesAreRefused() throws {
        let registry = BuiltInFormats.registry
        let csv = try registry.require("csv")
        #expect(throws: Diagnostic.self) { try registry.checkOptions(["relativ": "yes"], codecs: [csv]) }
        let wrong = #expect(throws: Diagnostic.self) { try registry.checkOptions(["sheet": "libraries"], codecs: [csv]) }
        #expect(wrong?.code == "option.invalid-value")
        try registry.checkOptions(["relative": "yes", "today": "2025-01-01", "sheet": "goals"], codecs: [csv])
        // A near miss is named, as swift-argument-parser names a misspelt flag; a far one is not guessed.
        let misspelt = #expect(throws: Diagnostic.self) { try registry.checkOptions(["styel": "iso"], codecs: [csv]) }
        #expect(misspelt?.code == "option.unknown-near")
        #expect(misspelt?.message.arguments.prefix(2) == ["styel", "style"])
        let value = #expect(throws: Diagnostic.self) { try registry.checkOptions(["style": "isoo"], codecs: [csv]) }
        #expect(value?.code == "option.invalid-value-near")
        #expect(value?.message.arguments.prefix(3) == ["style", "isoo", "iso"])
        let far = #expect(throws: Diagnostic.self) { try registry.checkOptions(["zzz": "1"], codecs: [csv]) }
        #expect(far?.code == "option.unknown")
    }

    @Test func spellingFindsTheNearestWord() {
        #expect(Spelling.nearest(to: "UNTL", among: ["UNTIL", "COUNT"]) == "UNTIL")
        #expect(Spelling.nearest(to: "styel", among: ["style", "sheet"]) == "style")
        #expect(Spelling.nearest(to: "Relativ", among: ["relative"]) == "relative")
        // Ties and far words get no guess; the word itself is no suggestion.
        #expect(Spelling.nearest(to: "ab", among: ["ac", "ad"]) == nil)
        #expect(Spelling.nearest(to: "zzz", among: ["style", "bom"]) == nil)
        #expect(Spelling.nearest(to: "style", among: ["style"]) == nil)
    }
}
