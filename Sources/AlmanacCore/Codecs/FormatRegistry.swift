/// The formats Almanac can read and write, looked up by id, alias, file extension or content.
///
/// A later registration of the same id replaces the earlier one, so a user's codec can override a
/// built-in. Lookups by extension prefer the most specific extension (`.agenda.json` over `.json`),
/// then the latest registration.
public struct FormatRegistry: Sendable {
    private var registered: [any Codec] = []
    /// Each codec's description, read once when it is registered: a codec's `format` builds its
    /// description at each call, and identifying a file asks every codec for it several times.
    private var descriptions: [FormatDescription] = []
    /// Every format's extensions as bytes, with the format's place in `registered`: names are
    /// matched against these without touching a description (reading one from the array copies
    /// it, retaining and releasing its dozen fields, for every format and file).
    private var extensionTable: [(bytes: [UInt8], format: Int)] = []
    private var converters: [any DocumentConverter] = []
    private var transforms: [any DocumentTransform] = []

    public init(_ codecs: [any Codec] = [], converters: [any DocumentConverter] = [], transforms: [any DocumentTransform] = []) {
        for codec in codecs { register(codec) }
        self.converters = converters
        self.transforms = transforms
    }

    /// Adds a transform; a later one replaces one of the same id.
    public mutating func register(transform: any DocumentTransform) {
        transforms.removeAll { $0.id == transform.id }
        transforms.append(transform)
    }

    /// The transform with this id (`to-locale`).
    public func transform(named id: String) -> (any DocumentTransform)? { transforms.last { $0.id == id } }

    /// Every converter between models, in registration order.
    public var documentConverters: [any DocumentConverter] { converters }

    /// Adds a converter between models; a later one wins for the same pair.
    public mutating func register(converter: any DocumentConverter) { converters.append(converter) }

    /// Converts a document to another model, with warnings about what could not be carried over.
    ///
    /// When no converter goes directly, the shortest chain does (a backup becomes days, the days a
    /// table). A backup becomes another app's backup when `target-format` names one.
    public func convert(_ document: Document, to model: ModelKind, context: CodecContext) throws(Diagnostic) -> (Document, [Diagnostic]) {
        if document.kind == model {
            guard case .backup(let backup) = document, let target = context.targetFormat, target != backup.format else {
                return (document, [])
            }
        }
        // A converter may know the better way for this document (through its ledger, say).
        var preferred: [(converter: any DocumentConverter, to: ModelKind)]?
        for converter in converters where converter.conversions.contains(where: { $0.from == document.kind }) {
            if let via = converter.route(document, toward: model), via != model,
               converter.conversions.contains(where: { $0.from == document.kind && $0.to == via }), let rest = path(from: via, to: model) {
                preferred = [(converter, via)] + rest
            }
        }
        guard let path = preferred ?? path(from: document.kind, to: model) else {
            let writers = self.writers(of: document.kind).map(\.format.id).joined(separator: ", ")
            throw Diagnostic.error(.convertNoPath(model: document.kind.rawValue, target: model.rawValue, formats: writers))
        }
        var current = document
        var diagnostics: [Diagnostic] = []
        for step in path {
            let (next, notes) = try step.converter.convert(current, to: step.to, context: context)
            diagnostics += notes
            current = next
        }
        return (current, diagnostics)
    }

    /// The shortest chain of converters between two models (later registrations win ties).
    func path(from source: ModelKind, to target: ModelKind) -> [(converter: any DocumentConverter, to: ModelKind)]? {
        func direct(_ from: ModelKind, _ to: ModelKind) -> (any DocumentConverter)? {
            converters.last { $0.conversions.contains { $0.from == from && $0.to == to } }
        }
        if let converter = direct(source, target) { return [(converter, target)] }
        var previous: [ModelKind: ModelKind] = [source: source]
        var queue = [source]
        while !queue.isEmpty {
            let model = queue.removeFirst()
            // Days and ledgers carry meaning between formats; a table or a catalog in the middle
            // would not (days → table → ledger is not a conversion anyone wants).
            for next in ModelKind.allCases where previous[next] == nil && next != source && direct(model, next) != nil
                && (next == target || next == .agenda || next == .ledger) {
                previous[next] = model
                if next == target {
                    var chain: [(any DocumentConverter, ModelKind)] = []
                    var step = target
                    while step != source {
                        let from = previous[step]!
                        chain.insert((direct(from, step)!, step), at: 0)
                        step = from
                    }
                    return chain
                }
                queue.append(next)
            }
        }
        return nil
    }

    /// The models a document of `model` can become.
    public func targets(of model: ModelKind) -> [ModelKind] {
        [model] + converters.flatMap { $0.conversions.filter { $0.from == model }.map(\.to) }
    }

    public mutating func register(_ codec: any Codec) {
        let format = codec.format
        let kept = descriptions.indices.filter { descriptions[$0].id != format.id }
        registered = kept.map { registered[$0] } + [codec]
        descriptions = kept.map { descriptions[$0] } + [format]
        extensionTable = descriptions.indices.flatMap { index in descriptions[index].extensions.map { (Array($0.utf8), index) } }
    }

    /// The length of the longest of each format's extensions that `fileName` ends with, by the
    /// format's place in `registered` (0: none).
    private func extensionMatches(_ fileName: String) -> [Int] {
        var lengths = Array(repeating: 0, count: registered.count)
        fileName.withByteView { bytes in
            let baseStart = FormatDescription.baseStart(bytes)
            for entry in extensionTable {
                let length = entry.bytes.withByteView { FormatDescription.matchLength(bytes, baseStart: baseStart, $0) }
                if length > lengths[entry.format] { lengths[entry.format] = length }
            }
        }
        return lengths
    }

    /// Every codec, in registration order.
    public var codecs: [any Codec] { registered }

    /// The codec with this id or alias.
    public func codec(named name: String) -> (any Codec)? {
        registered.last { $0.format.id.lowercased() == name.lowercased() }
            ?? registered.last { $0.format.isNamed(name) }
    }

    /// The codec with this id or alias, or a diagnostic listing the known formats.
    public func require(_ name: String) throws(Diagnostic) -> any Codec {
        guard let codec = codec(named: name) else {
            throw Diagnostic.error(.formatUnknown(name: name, formats: registered.map(\.format.id).joined(separator: ", ")))
        }
        return codec
    }

    /// How a file's format was chosen.
    public enum Basis: String, Hashable, Sendable, Codable {
        /// `--from`.
        case explicit
        /// Its content said so (and its name agreed, or did not say).
        case content
        /// Its name, where the content could not tell.
        case fileExtension = "extension"
    }

    public struct Identified: Sendable {
        public let codec: any Codec
        public let basis: Basis
        /// Other formats that also claimed the file.
        public let alternatives: [String]
    }

    /// The length of the longest extension any format claims that `fileName` ends with (0 for
    /// none): what a batch output's name drops before it takes the target's extension.
    public func longestExtension(of fileName: String) -> Int {
        extensionMatches(fileName).max() ?? 0
    }

    /// Chooses the codec for a file: among the formats its extension names, the first whose
    /// `identify` says yes (or can't tell); otherwise any format whose `identify` says yes.
    public func identify(_ probe: Probe) throws(Diagnostic) -> Identified {
        var readable: [Int] = []
        readable.reserveCapacity(registered.count)
        var matches: [(length: Int, index: Int)] = []
        let lengths = probe.fileName.map(extensionMatches)
        for index in registered.indices where descriptions[index].canRead {
            readable.append(index)
            if let length = lengths?[index], length > 0 { matches.append((length, index)) }
        }
        let byExtension = matches.sorted { $0 > $1 }.map { registered[$0.index] }
        var fallback: (any Codec)?
        for codec in byExtension {
            switch codec.identify(probe) {
            case .yes:
                return Identified(codec: codec, basis: .content, alternatives: [])
            case .cannotTell where fallback == nil:
                fallback = codec
            default:
                break
            }
        }
        let claims = readable.reversed().filter { registered[$0].identify(probe) == .yes }
        if let first = claims.first {
            return Identified(codec: registered[first], basis: .content, alternatives: claims.dropFirst().map { descriptions[$0].id })
        }
        if let fallback { return Identified(codec: fallback, basis: .fileExtension, alternatives: []) }
        throw Diagnostic.error(.formatUndetected, at: SourceLocation(file: probe.fileName))
    }

    /// The input and the codec that reads it, before anything past the probe is read: `codec`
    /// when it is given (`--from`), otherwise the one `identify` chooses. Files are not read
    /// whole here; codecs that stream read the rest in chunks.
    public func open(_ input: ConversionInput, codec forced: (any Codec)?) throws(Diagnostic) -> (codec: any Codec, input: CodecInput) {
        try openIdentified(input, codec: forced).opened
    }

    /// `open`, with how the format was chosen.
    public func openIdentified(_ input: ConversionInput, codec forced: (any Codec)?) throws(Diagnostic)
        -> (opened: (codec: any Codec, input: CodecInput), basis: Basis)
    {
        var codecInput: CodecInput
        let prefix: [UInt8]
        switch input {
        case .standardInput(let bytes):
            codecInput = CodecInput(bytes: bytes, fileName: nil)
            prefix = Array(bytes.prefix(Probe.prefixLength))
        case .file(let path):
            let read = try FileChunks.prefix(path, count: Probe.prefixLength)
            prefix = read.bytes
            // A file shorter than the probe has been read whole: the codec gets those bytes
            // instead of opening the file again.
            codecInput = read.isWhole ? CodecInput(bytes: read.bytes, fileName: path) : CodecInput(contentsOf: path)
        }
        let codec: any Codec
        let basis: Basis
        if let forced {
            codec = forced
            basis = .explicit
        } else {
            let probe = Probe(prefix: prefix, fileName: input.path)
            let identified = try identify(probe)
            codec = identified.codec
            basis = identified.basis
            // The probe saw all of a file read whole: what it found about the bytes holds for the input.
            if probe.textIsPrefix, case .bytes(let bytes) = codecInput.source, bytes.count == prefix.count { codecInput.isValidUTF8 = true }
        }
        guard codec.format.canRead else { throw Diagnostic.error(.formatCannotRead(format: codec.format.id)) }
        return ((codec, codecInput), basis)
    }

    /// Reads and identifies one input and decodes it whole, with how its format was chosen.
    public func load(_ input: ConversionInput, codec forced: (any Codec)?, context: CodecContext) throws(Diagnostic)
        -> (codec: any Codec, basis: Basis, decoded: Decoded)
    {
        let (opened, basis) = try openIdentified(input, codec: forced)
        var context = context
        context.sourceFile = input.path
        if context.timeZoneDefinitions == nil { context.timeZoneDefinitions = timeZoneDefinitionReader }
        var decoded = try opened.codec.decode(opened.input, context: context)
        decoded.diagnostics = decoded.diagnostics.map { $0.inFile(input.path) }
        return (opened.codec, basis, decoded)
    }

    /// The reader of time zone definitions the registered codecs offer (the latest registered).
    public var timeZoneDefinitionReader: (any TimeZoneDefinitionReader)? {
        registered.reversed().lazy.compactMap { $0 as? any TimeZoneDefinitionReader }.first
    }

    /// The folder layout a folder is in (an `.lproj` tree), by the latest codec that claims it.
    public func folderLayout(of path: String) -> (any FolderLayoutCodec)? {
        registered.reversed().lazy.compactMap { $0 as? any FolderLayoutCodec }.first { $0.isFolderLayout(path) }
    }

    /// A converter of items along `path` (models, first to last): one converter that handles the
    /// whole path, else one per step chained.
    public func itemConverter(path: [ModelKind], context: CodecContext) -> (any DocumentItemConverter)? {
        guard path.count > 1 else { return nil }
        for converter in converters.reversed() {
            if let whole = converter.itemConverter(path: path, context: context) { return whole }
        }
        guard path.count > 2 else { return nil }
        var steps: [any DocumentItemConverter] = []
        for index in 1..<path.count {
            guard let step = itemConverter(path: [path[index - 1], path[index]], context: context) else { return nil }
            steps.append(step)
        }
        // A later step cannot see the source's items in a first pass.
        guard !steps.dropFirst().contains(where: \.needsFirstPass) else { return nil }
        return ChainedItemConverter(steps: steps)
    }

    /// Every `--option` name a codec or converter declares (`style`, `bom`).
    public var declaredOptionNames: Set<String> {
        Set(codecs.flatMap(\.format.options).map(\.name) + converters.flatMap(\.options).map(\.name) + transforms.flatMap(\.options).map(\.name))
    }

    /// Checks `--option` settings against what the codecs and every converter declare: a name no
    /// one reads is refused (a typo would otherwise change nothing, silently), and so is a value
    /// outside a declared set. The error lists what is accepted.
    public func checkOptions(_ options: CodecOptions, codecs: [any Codec]) throws(Diagnostic) {
        var declared: [String: [FormatDescription.Option]] = [:]
        for option in codecs.flatMap(\.format.options) + converters.flatMap(\.options) + transforms.flatMap(\.options) {
            declared[option.name, default: []].append(option)
        }
        for (name, value) in options.values.sorted(by: { $0.key < $1.key }) {
            guard let declarations = declared[name] else {
                // A near miss (`styel`) is named, as swift-argument-parser names a misspelt flag.
                let names = declared.keys.sorted()
                if let meant = Spelling.nearest(to: name, among: names) {
                    throw Diagnostic.error(.optionUnknownNear(option: name, meant: meant, options: names.joined(separator: ", ")))
                }
                throw Diagnostic.error(.optionUnknown(option: name, options: names.joined(separator: ", ")))
            }
            // Free text when any declaration leaves it free; otherwise one of the values some declare.
            if declarations.allSatisfy({ $0.values != nil }) {
                var values: [String] = []
                for value in declarations.flatMap({ $0.values ?? [] }) where !values.contains(value) { values.append(value) }
                if !values.contains(value) {
                    if let meant = Spelling.nearest(to: value, among: values) {
                        throw Diagnostic.error(.optionInvalidValueNear(option: name, value: value, meant: meant, choices: values.joined(separator: ", ")))
                    }
                    throw Diagnostic.error(.optionInvalidValue(option: name, value: value, choices: values.joined(separator: ", ")))
                }
            }
        }
    }

    /// The codecs that can write a document of a model (directly or through a converter).
    public func writers(of model: ModelKind) -> [any Codec] {
        let reachable = Set([model] + converters.flatMap { $0.conversions.filter { $0.from == model }.map(\.to) })
        return registered.filter { reachable.contains($0.format.model) && $0.format.canWrite }
    }
}
