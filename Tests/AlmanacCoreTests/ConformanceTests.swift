import AlmanacCore
import AlmanacTestSupport
import Testing

/// The one test every codec must pass. Codec families add their codecs to the registry the CLI
/// uses; AlmanacCLITests runs the same check over that whole registry.
@Suite struct CodecConformanceTests {
    @Test(arguments: ModelJSONCodec.all)
    func modelJSONCodecsConform(codec: ModelJSONCodec) {
        #expect(CodecConformance.problems(of: codec) == [])
    }

    /// A codec that breaks the rules is caught: the checks themselves can fail.
    @Test func theCheckFindsABrokenCodec() {
        struct Careless: Codec {
            var format: FormatDescription {
                FormatDescription(id: "Careless Format", name: "Careless", summary: "Breaks every rule.",
                                  extensions: ["TXT"], model: .agenda,
                                  examples: [.init(summary: "one", input: "hello")])
            }
            func identify(_ probe: Probe) -> Identification { .no }
            func decode(_ input: CodecInput, context: CodecContext) throws(Diagnostic) -> Decoded {
                _ = context.options["secret-switch"]  // read, but not declared
                guard try input.readAll().count == 5 else { throw Diagnostic.error(.jsonSyntax(reason: "short")) }
                return Decoded(document: .agenda(Agenda(items: [CalendarItem(uid: UUIDs.next(), title: "x")])))
            }
            func encode(_ document: Document, context: CodecContext) throws(Diagnostic) -> Encoded {
                Encoded(bytes: Array("hello".utf8))
            }
        }
        let problems = CodecConformance.problems(of: Careless())
        #expect(problems.contains { $0.contains("lowercase without spaces") })
        #expect(problems.contains { $0.contains("must start with a dot") })
        #expect(problems.contains { $0.contains("identify says no") })
        #expect(problems.contains { $0.contains("changes in a round trip") })
        #expect(problems.contains { $0.contains("fails without a location") })
        #expect(problems.contains { $0.contains("should fail with a diagnostic") })
        #expect(problems.contains { $0.contains("reads the option \"secret-switch\"") })
    }

    /// A streaming decoder that hands over items another way than it decodes whole is caught.
    @Test func theCheckFindsAStreamThatDisagrees() {
        struct Forgetful: StreamingDecoder {
            var format: FormatDescription {
                FormatDescription(id: "forgetful", name: "Forgetful", summary: "Loses its last item when streamed.",
                                  extensions: [".forget"], model: .table, canWrite: false,
                                  examples: [.init(summary: "two rows", input: "a\nb\n")])
            }
            func identify(_ probe: Probe) -> Identification { .cannotTell }
            func decode(_ input: CodecInput, context: CodecContext) throws(Diagnostic) -> Decoded {
                Decoded(document: .table(Table(columns: ["x"], rows: [["a"], ["b"]])))
            }
            func decodeItems(_ input: CodecInput, context: CodecContext, into sink: inout some DocumentSink) throws(Diagnostic) -> Decoded {
                try sink.item(.rows(TableRows([["a"]])))
                try sink.begin(.table(Table(columns: ["x"])))
                return Decoded(document: .table(Table(columns: ["x"])))
            }
        }
        let problems = CodecConformance.problems(of: Forgetful())
        #expect(problems.contains { $0.contains("an item before the frame") })
        #expect(problems.contains { $0.contains("another document than decoding whole") })
    }
}

/// Distinct values on every call, to make a codec's output unstable on purpose.
enum UUIDs {
    nonisolated(unsafe) static var counter = 0
    static func next() -> String {
        counter += 1
        return "id-\(counter)"
    }
}
