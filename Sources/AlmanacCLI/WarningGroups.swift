import AlmanacCore

/// A batch's warnings and notes as a person can act on them: one group per code (and, for what a
/// conversion dropped or approximated, per target and field), with how many files and items it
/// touched and its first three examples. A group of three or fewer is shown as its lines.
///
/// Errors are never grouped: a failure is shown with its file and reason. Every diagnostic stays
/// in `--report` and is printed one by one with `--verbose`.
///
/// What a table for people leaves out by design (`convert.left-out`: ids, alerts, colours) is one
/// line per target, whatever its fields, always: nothing in it needs doing.
struct WarningGroups {
    struct Key: Hashable {
        let severity: Diagnostic.Severity
        let code: DiagnosticCode
        /// For a loss, its target and field (`retiretime-backup`, `end`); empty otherwise.
        let subject: [String]
    }

    struct Group {
        let key: Key
        /// How an approximated field was written (`the day only`), while every warning of the
        /// group says the same; nil once they differ (a lunar date moved to its next match).
        var how: String?
        var count = 0
        var items = 0
        var files: Set<String> = []
        var examples: [Diagnostic] = []
        /// For what was left out by design: its fields, in the order met.
        var fields: [String] = []
    }

    static let examplesShown = 3

    private(set) var groups: [Group] = []
    private var places: [Key: Int] = [:]
    /// Errors, in the order met, shown as they are.
    private(set) var errors: [Diagnostic] = []

    init(_ diagnostics: some Sequence<Diagnostic>) {
        for diagnostic in diagnostics { add(diagnostic) }
    }

    /// Whether some group is shown as a summary (so the footer says where the rest is).
    var summarizes: Bool { groups.contains { $0.count > Self.examplesShown && $0.key.code != .convertLeftOut } }

    private mutating func add(_ diagnostic: Diagnostic) {
        guard diagnostic.severity != .error else {
            errors.append(diagnostic)
            return
        }
        let loss = Losses.loss(in: diagnostic)
        let byDesign = diagnostic.code == .convertLeftOut
        let key = Key(severity: diagnostic.severity, code: diagnostic.code,
                      subject: loss.map { byDesign ? [$0.target] : [$0.target, $0.field] } ?? [])
        let place: Int
        if let found = places[key] {
            place = found
            if groups[place].how != loss?.how { groups[place].how = nil }
        } else {
            place = groups.count
            places[key] = place
            groups.append(Group(key: key, how: loss?.how))
        }
        groups[place].count += 1
        if byDesign, let field = loss?.field, !groups[place].fields.contains(field) { groups[place].fields.append(field) }
        groups[place].items += diagnostic.items ?? 1
        groups[place].files.insert(diagnostic.location?.file ?? "")
        if groups[place].examples.count < Self.examplesShown { groups[place].examples.append(diagnostic) }
    }

    /// The lines to print, in `language`: errors, then each group in the order first met. `inline`
    /// (one conversion's warnings): a group's examples are named on its line, the files they came
    /// from, so that a catalog written as 22 locale files says each kind of loss once.
    func lines(in language: Language, inline: Bool = false) -> [String] {
        var lines = errors.map { $0.rendered(in: language) }
        for group in groups {
            if group.key.code == .convertLeftOut, let target = group.key.subject.first {
                let fields = group.fields.joined(separator: ", "), items = String(group.items)
                // One file's: said at that file.
                let file = group.files.count == 1 ? group.files.first.flatMap { $0.isEmpty ? nil : $0 } : nil
                let headline = file == nil ? Message.batchGroupLeftOut(target: target, fields: fields, items: items, files: String(group.files.count))
                    : Message.batchGroupLeftOutOne(target: target, fields: fields, items: items)
                lines.append(Diagnostic(group.key.severity, Message(code: group.key.code.rawValue, text: headline.rendered(in: language)),
                                        at: file.map { SourceLocation(file: $0) }).rendered(in: language))
                continue
            }
            guard group.count > Self.examplesShown else {
                lines += group.examples.map { $0.rendered(in: language) }
                continue
            }
            if inline {
                var places: [String] = []
                for place in group.examples.compactMap({ $0.location?.file.map(Self.shortName) }) where !places.contains(place) { places.append(place) }
                // A kind with no headline of its own is said by its first message (`Drafted 27 values
                // in zh-Hant…`), not by a count alone.
                let first = group.examples.first.map { $0.message.rendered(in: language) }
                let head = Losses.loss(in: group.examples[0]) == nil && group.key.code != .convertDropped && group.key.code != .convertApproximated
                    ? Message.batchGroupFirst(first: first ?? "", more: String(group.count - 1)).rendered(in: language)
                    : headline(group, in: language)
                let text = head + (places.isEmpty ? "" : "; " + Message.batchGroupExample(example: places.joined(separator: ", ")).rendered(in: language))
                lines.append(Diagnostic(group.key.severity, Message(code: group.key.code.rawValue, text: text)).rendered(in: language))
                continue
            }
            let headline = Message(code: group.key.code.rawValue, text: headline(group, in: language))
            lines.append(Diagnostic(group.key.severity, headline).rendered(in: language))
            for example in group.examples {
                let place = example.location.map { $0.description + ": " } ?? ""
                // A loss's example names its items (and how they were written, when that differs
                // item by item); another's is its message.
                let line: Message
                if let loss = Losses.loss(in: example) {
                    let items = place + Message.quoting(loss.items, limit: 400)
                    if group.how == nil, let how = loss.how {
                        line = Message.batchGroupExampleAs(example: items, how: Message.quoting(how))
                    } else {
                        line = Message.batchGroupExample(example: items)
                    }
                } else {
                    line = Message.batchGroupExample(example: place + example.message.rendered(in: language))
                }
                lines.append("  " + line.rendered(in: language))
            }
        }
        if summarizes { lines.append(Message.batchGroupFooter.rendered(in: language)) }
        return lines
    }

    /// A file as an example names it: its folder and name (`zh-Hant.lproj/Localizable.strings`).
    static func shortName(_ path: String) -> String {
        path.split(separator: "/").suffix(2).joined(separator: "/")
    }

    private func headline(_ group: Group, in language: Language) -> String {
        let files = String(group.files.count), items = String(group.items)
        let subject = group.key.subject
        switch group.key.code {
        case .convertDropped where subject.count == 2:
            return Message.batchGroupDropped(target: subject[0], field: subject[1], files: files, items: items).rendered(in: language)
        case .convertApproximated where subject.count == 2:
            if let how = group.how {
                return Message.batchGroupApproximated(target: subject[0], field: subject[1], how: how, files: files, items: items).rendered(in: language)
            }
            return Message.batchGroupApproximatedVariously(target: subject[0], field: subject[1], files: files, items: items).rendered(in: language)
        default:
            return Message.batchGroup(count: String(group.count), files: files).rendered(in: language)
        }
    }
}
