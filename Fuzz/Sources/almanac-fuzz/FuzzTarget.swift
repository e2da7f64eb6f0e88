import AlmanacAndroid
import AlmanacCLI
import AlmanacCalendar
import AlmanacCore
import AlmanacICU
import AlmanacICalendar
import AlmanacKit
import Foundation

// One libFuzzer target for every decoder: ALMANAC_FUZZ_CODEC names the format (`ics`, `csv`,
// `strings`, `xliff`, `retiretime-backup`…). Each input is decoded; what decodes is encoded
// again and decoded once more (the writers see odd documents too), and calendars are expanded
// over two years, so the recurrence engine meets every rule the parser lets through.
// A crash, a sanitizer report or an input slower than libFuzzer's -timeout is a bug to fix.

let registry: FormatRegistry = {
    var registry = BuiltInFormats.registry
    registry.register(AndroidStringsCodec())
    return registry
}()

let codec: any Codec = {
    let name = ProcessInfo.processInfo.environment["ALMANAC_FUZZ_CODEC"] ?? "ics"
    guard let codec = registry.codec(named: name) else {
        FileHandle.standardError.write(Data("almanac-fuzz: no codec \(name); see almanac formats\n".utf8))
        exit(2)
    }
    return codec
}()

let window = (
    from: Date(timeIntervalSince1970: 1_735_689_600),  // 2025-01-01
    until: Date(timeIntervalSince1970: 1_798_761_600)  // 2027-01-01
)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let file = "input" + (codec.format.extensions.first ?? "")
    _ = codec.identify(Probe(prefix: bytes, fileName: file))
    guard let decoded = try? codec.decode(CodecInput(bytes: bytes, fileName: file), context: CodecContext()) else { return 0 }
    // A catalog's locales become folder names: whatever a reader lets through must be a language
    // tag, and a folder layout built from it must be plain names (SECURITY.md).
    if case .catalog(let catalog) = decoded.document {
        for locale in [catalog.sourceLanguage] + catalog.locales where !LanguageTag.isWellFormed(locale) {
            fatalError("\(codec.format.id) let the locale \(Message.quoting(locale)) into the model")
        }
        if let layout = codec as? any FolderLayoutCodec, let files = try? layout.encodeFolder(decoded.document, name: "input", context: CodecContext()) {
            for file in files where (try? OutputNames.checkPlainComponents(file.path, shownAs: file.path)) == nil {
                fatalError("\(codec.format.id) laid out the path \(Message.quoting(file.path))")
            }
        }
    }
    if case .agenda(let agenda) = decoded.document {
        _ = OccurrenceExpander(agenda: agenda, defaultZone: .taipei).occurrences(from: window.from, until: window.until, limit: 200)
    }
    guard codec.format.canWrite, let encoded = try? codec.encode(decoded.document, context: CodecContext()) else { return 0 }
    _ = try? codec.decode(CodecInput(bytes: encoded.bytes, fileName: file), context: CodecContext())
    return 0
}

// SwiftPM links an executable's entry point as `almanac_fuzz_main`; hand the process to libFuzzer.
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
               _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32) -> Int32

@_cdecl("almanac_fuzz_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments) { data, size in fuzz(data, size) }
}
