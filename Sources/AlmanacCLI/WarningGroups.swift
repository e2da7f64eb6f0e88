import AlmanacCore

/// A batch's warnings and notes as a person can act on them: one group per code (and, for what a
/// conversion dropped or approximated, per target and field), with how many files and items it
/// touched and its first three examples. A group of three or fewer is shown as its lines.
///
/// Errors are never grouped: a failure is shown with its file and reason. Every diagnostic stays
/// in `--report` and is printed one by one with `--verbose`.
struct WarningGroups {
    struct Group {
        let severity: Diagnostic.Severity
        let code: DiagnosticCode
        /// The arguments that name what was lost (`retiretime-backup`, `end`), not the items.
        let subject: [String]
        /// How an approximated field was written (`the day only`), while every warning of the
        /// group says the same; nil once they differ (a lunar date moved to its next match).
        var how: String?
        var count = 0
        var items = 0
        var files: Set<String> = []
        var examples: [Diagnostic] = []
    }

    static let examplesShown = 3

    private(set) var groups: [Group] = []
    private var places: [GroupKey: Int] = [:]
    /// Errors, in the order met, shown as they are.
    private(set) var errors: [Diagnostic] = []

    private struct GroupKey: Hashable {
        let severity: Diagnostic.Severity
        let code: DiagnosticCode
        let subject: [String]
    }

    init(_ diagnostics: some Sequence<Diagnostic>) {
        for diagnostic in diagnostics { add(diagnostic) }
    }

    /// Whether some group is shown as a summary (so the footer says where the rest is).
    var summarizes: Bool { groups.contains { $0.count > Self.examplesShown } }

    /// The losses' warnings name the target and the field first; then, for an approximation, how
    /// it was written (which may differ item by item), and last the items.
    static func subject(of diagnostic: Diagnostic) -> [String] {
        Losses.codes.contains(diagnostic.code) ? Array(diagnostic.message.arguments.prefix(2)) : []
    }

    /// How an approximated field was written, as the warning says.
    static func how(of diagnostic: Diagnostic) -> String? {
        let arguments = diagnostic.message.arguments
        return diagnostic.code == .convertApproximated && arguments.count == 4 ? arguments[2] : nil
    }

    private mutating func add(_ diagnostic: Diagnostic) {
        guard diagnostic.severity != .error else {
            errors.append(diagnostic)
            return
        }
        let key = GroupKey(severity: diagnostic.severity, code: diagnostic.code, subject: Self.subject(of: diagnostic))
        let place: Int
        if let found = places[key] {
            place = found
        } else {
            place = groups.count
            places[key] = place
            groups.append(Group(severity: key.severity, code: key.code, subject: key.subject, how: Self.how(of: diagnostic)))
        }
        if groups[place].how != Self.how(of: diagnostic) { groups[place].how = nil }
        groups[place].count += 1
        groups[place].items += diagnostic.items ?? 1
        groups[place].files.insert(diagnostic.location?.file ?? "")
        if groups[place].examples.count < Self.examplesShown { groups[place].examples.append(diagnostic) }
    }

    /// The lines to print, in `language`: errors, then each group in the order first met.
    func lines(in language: Language) -> [String] {
        var lines = errors.map { $0.rendered(in: language) }
        for group in groups {
            guard group.count > Self.examplesShown else {
                lines += group.examples.map { $0.rendered(in: language) }
                continue
            }
            lines.append(Diagnostic(group.severity, Message(code: group.code.rawValue, text: headline(group, in: language))).rendered(in: language))
            for example in group.examples {
                let place = example.location.map { $0.description + ": " } ?? ""
                // A loss's example names its items (and how they were written, when that differs
                // item by item); another's is its message.
                let line: Message
                if Losses.codes.contains(group.code) {
                    let items = place + Message.quoting(example.message.arguments.last ?? "", limit: 400)
                    if group.how == nil, let how = Self.how(of: example) {
                        line = Message("batch.group-example-as", items, Message.quoting(how))
                    } else {
                        line = Message("batch.group-example", items)
                    }
                } else {
                    line = Message("batch.group-example", place + example.message.rendered(in: language))
                }
                lines.append("  " + line.rendered(in: language))
            }
        }
        if summarizes { lines.append(Message("batch.group-footer").rendered(in: language)) }
        return lines
    }

    private func headline(_ group: Group, in language: Language) -> String {
        let files = String(group.files.count), items = String(group.items)
        switch group.code {
        case .convertDropped where group.subject.count == 2:
            return Message("batch.group-dropped", group.subject[0], group.subject[1], files, items).rendered(in: language)
        case .convertApproximated where group.subject.count == 2:
            if let how = group.how {
                return Message("batch.group-approximated", group.subject[0], group.subject[1], how, files, items).rendered(in: language)
            }
            return Message("batch.group-approximated-variously", group.subject[0], group.subject[1], files, items).rendered(in: language)
        default:
            return Message("batch.group", String(group.count), files).rendered(in: language)
        }
    }
}
