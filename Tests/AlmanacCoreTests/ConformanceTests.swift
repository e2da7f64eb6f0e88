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
                guard try input.readAll().count == 5 else { throw Diagnostic.error("json.syntax", "short") }
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
