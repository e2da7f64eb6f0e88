import AlmanacCore

/// A calendar streamed into a Retire Time backup, in memory that does not grow with the days:
/// a first pass over the items finds the categories (they come before the days in the file's
/// sorted keys), the second writes each day as its item arrives. The days are those `make(from:)`
/// makes, each checked as the app reads it before it is written (ids unique across the file), and
/// the bytes those of the whole backup written at once.
final class RetireTimeDaysConverter: DocumentItemConverter {
    let context: CodecContext
    private var firstPass: RetireTimeBackup.DayMaker?

    init(context: CodecContext) { self.context = context }

    var needsFirstPass: Bool { true }

    func observeFrame(_ frame: Document) {
        if case .agenda(let agenda) = frame { firstPass = RetireTimeBackup.DayMaker(agenda, context: context) }
    }

    func observe(_ item: DocumentItem) {
        guard case .calendarItem(let item) = item else { return }
        _ = firstPass?.day(from: item)
    }

    /// The calendar with every category the days use carried on it, as `make(from:)` reads them.
    func frame(_ frame: Document) throws(Diagnostic) -> Document {
        guard case .agenda(var agenda) = frame else { throw Diagnostic.error(.convertItemMismatch(format: "agenda")) }
        if let categories = firstPass?.categories {
            agenda.carried.removeAll { $0.name == CarriedName.retireTimeCategory }
            agenda.carried += RetireTimeBackup.carried(categories)
        }
        return .agenda(agenda)
    }

    /// Items pass to the backup's writer, which makes the days.
    func convert(_ item: DocumentItem, emit: (DocumentItem) throws(Diagnostic) -> Void) throws(Diagnostic) { try emit(item) }

    func finish(_ frame: Document) throws(Diagnostic) -> (frame: Document, diagnostics: [Diagnostic]) { (try self.frame(frame), []) }
}

/// Writes a Retire Time backup day by day (see `RetireTimeDaysConverter`).
final class RetireTimeDaysWriter: DocumentItemWriter {
    private var maker: RetireTimeBackup.DayMaker
    private let output: ByteOutput
    private var writer = JSONWriter(layout: .python, capacity: 1 << 20, level: 2)
    /// What follows the days: `]`, then the members after `days`.
    private let tail: [UInt8]
    /// The categories as the check reads them.
    private let categories: JSONValue
    private var count = 0
    /// Each day's id and its index, for the duplicate check.
    private var ids: [String: Int] = [:]

    /// The head of the file (through `"days": [`) is written at once: the settings and the
    /// categories are known from the frame.
    init(_ agenda: Agenda, context: CodecContext, output: @escaping ByteOutput) throws(Diagnostic) {
        maker = RetireTimeBackup.DayMaker(agenda, context: context)
        self.output = output
        let empty = maker.backup(days: [])
        let json = empty.json
        categories = json.object?.first { $0.0 == "categories" }?.1 ?? .array([])
        try Self.check(json, dayIndex: nil)
        let bytes = BackupJSON.bytes(json)
        let marker = Array("\n  \"days\": []".utf8)
        guard let range = bytes.firstRange(of: marker) else { throw Diagnostic.error(.convertItemMismatch(format: "agenda")) }
        // Through `[`; the tail starts at `]`.
        try output(Array(bytes[..<(range.upperBound - 1)]))
        tail = Array(bytes[(range.upperBound - 1)...])
    }

    func write(_ item: DocumentItem) throws(Diagnostic) {
        guard case .calendarItem(let item) = item else { throw Diagnostic.error(.convertItemMismatch(format: "agenda")) }
        guard let day = maker.day(from: item) else { return }
        let json = RetireTimeBackup.json(of: day)
        // Never write what would not read back: the day as the app reads it, and its id once.
        try Self.check(.object([("exportedAt", .string(maker.exportedAt)), ("categories", categories), ("days", .array([json]))]),
                       dayIndex: count)
        if let first = ids[day.id] {
            var reader = BackupReader(file: nil)
            reader.error(.backupDuplicateId(id: day.id, firstPath: "/days/\(first)/id"), at: "/days/\(count)/id")
            throw reader.problems[0]
        }
        ids[day.id] = count
        writer.raw(count == 0 ? "\n    " : ",\n    ")
        writer.value(json)
        count += 1
        if writer.byteCount >= 1 << 20 { try output(writer.take()) }
    }

    func finish(_ frame: Document) throws(Diagnostic) -> [Diagnostic] {
        if count > 0 { writer.raw("\n  ") }
        writer.raw(tail)
        try output(writer.take())
        return maker.losses.diagnostics(target: RetireTimeBackup.format)
    }

    /// The first error reading `json` as a backup's top finds, its path the day's own.
    private static func check(_ json: JSONValue, dayIndex: Int?) throws(Diagnostic) {
        guard case .object(let top) = json else { return }
        var reader = BackupReader(file: nil)
        _ = RetireTimeBackup.read(top, version: RetireTimeBackup.version, reader: &reader)
        guard var problem = reader.problems.first(where: { $0.severity == .error }) else { return }
        if let dayIndex, let path = problem.location?.keyPath, path.hasPrefix("/days/0") {
            problem.location?.keyPath = "/days/\(dayIndex)" + path.dropFirst("/days/0".count)
        }
        throw problem
    }
}

/// Writes a whole backup document at the end (a backup's own items are not streamed).
final class WholeBackupWriter: DocumentItemWriter {
    let codec: BackupCodec
    let context: CodecContext
    let output: ByteOutput

    init(codec: BackupCodec, context: CodecContext, output: @escaping ByteOutput) {
        self.codec = codec
        self.context = context
        self.output = output
    }

    func write(_ item: DocumentItem) throws(Diagnostic) { throw Diagnostic.error(.convertItemMismatch(format: "backup")) }

    func finish(_ frame: Document) throws(Diagnostic) -> [Diagnostic] {
        let encoded = try codec.encode(frame, context: context)
        try output(encoded.bytes)
        return encoded.diagnostics
    }
}

extension BackupCodec: StreamingEncoder {
    /// A Retire Time backup from a calendar is written as its items come; a backup document is
    /// written whole at the end. The other apps nest their records (a list's reminders, a
    /// library's items) and are made from the whole calendar (`encode`).
    public func itemWriter(_ frame: Document, context: CodecContext, output: @escaping ByteOutput) throws(Diagnostic) -> any DocumentItemWriter {
        switch frame {
        case .agenda(let agenda) where app.format == RetireTimeBackup.format:
            return try RetireTimeDaysWriter(agenda, context: context, output: output)
        case .backup:
            return WholeBackupWriter(codec: self, context: context, output: output)
        default:
            throw Diagnostic.error(.convertModelMismatch(model: frame.kind.rawValue, format: id, expected: ModelKind.backup.rawValue))
        }
    }
}

extension RetireTimeBackup {
    /// Categories as a calendar carries them.
    static func carried(_ categories: [Category]) -> [CarriedProperty] {
        categories.map { category in
            var parameters = [CarriedProperty.Parameter(name: CarriedName.Parameter.id, values: [category.id])]
            if let color = category.color { parameters.append(.init(name: CarriedName.Parameter.color, values: [color])) }
            if let icon = category.icon { parameters.append(.init(name: CarriedName.Parameter.icon, values: [icon])) }
            return CarriedProperty(name: CarriedName.retireTimeCategory, parameters: parameters, text: category.name)
        }
    }
}
