public import AlmanacCore
import AlmanacICU

/// todo.txt (https://github.com/todotxt/todo.txt): one task a line, read into Almanac's agenda
/// model as to-dos, so a list moves to iCalendar, the Reminders backup or a CSV and back.
///
///     x 2025-03-02 2025-02-20 Pay rent +Home
///     (A) 2025-03-01 Call Mom +Family @phone due:2025-03-05
///
/// - `x` and the completion date → `isCompleted`, `completedAt`; the creation date → `created`;
/// - `(A)` `(B)` `(C)` → high, medium, low priority (other letters are kept as `X-TODOTXT-PRIORITY`);
///   a done task keeps its priority as `pri:A`, as todo.txt apps do;
/// - `+project` words → categories (they stay in the text too); `due:` → `due`; `uid:` → `uid`.
public struct TodoTxtCodec: Codec {
    public init() {}

    public let format = FormatDescription(
        id: "todotxt",
        name: "todo.txt",
        summary: "Plain-text task lists, one task a line, as todo.txt apps write them.",
        aliases: ["todo.txt"],
        extensions: [".todo.txt"],
        mediaTypes: ["text/plain"],
        model: .agenda,
        examples: [
            .init(summary: "open and done tasks", input: """
                (A) 2025-03-01 Call Mom +Family @phone due:2025-03-05
                x 2025-03-02 2025-02-20 Pay rent +Home pri:B
                Water the plants @home

                """),
        ])

    /// `todo.txt` and `done.txt` are the names todo.txt apps use; other files are read when named.
    public func identify(_ probe: Probe) -> Identification {
        let name = probe.fileName?.split(separator: "/").last.map { $0.lowercased() }
        if name == "todo.txt" || name == "done.txt" || name?.hasSuffix(".todo.txt") == true { return .yes }
        return .cannotTell
    }

    public func decode(_ input: CodecInput, context: CodecContext) throws(Diagnostic) -> Decoded {
        var body = try input.readAll()[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        var items: [CalendarItem] = []
        var diagnostics: [Diagnostic] = []
        for (index, rawLine) in body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let location = SourceLocation(file: input.fileName, line: index + 1)
            var line = rawLine
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            guard let text = String(validating: line, as: UTF8.self) else {
                throw Diagnostic(.error, TodoTxtMessages.message("todotxt.not-utf8"),
                                 at: location)
            }
            if text.allSatisfy(\.isWhitespace) { continue }
            items.append(Self.task(text, number: items.count + 1, at: location, diagnostics: &diagnostics))
        }
        return Decoded(document: .agenda(Agenda(items: items)), diagnostics: diagnostics, encoding: "UTF-8")
    }

    public func encode(_ document: Document, context: CodecContext) throws(Diagnostic) -> Encoded {
        guard case .agenda(let agenda) = document else {
            throw Diagnostic(.error, TodoTxtMessages.message("todotxt.not-an-agenda"))
        }
        var text = ""
        var diagnostics: [Diagnostic] = []
        for (index, item) in agenda.items.enumerated() {
            guard item.kind == .todo else {
                diagnostics.append(Diagnostic(.warning, TodoTxtMessages.message("todotxt.not-a-task", item.title),
                                              at: SourceLocation(keyPath: "/items/\(index)")))
                continue
            }
            text += Self.line(item) + "\n"
        }
        return Encoded(bytes: Array(text.utf8), diagnostics: diagnostics)
    }

    static let priorities: [Character: Priority] = ["A": .high, "B": .medium, "C": .low]
    static let priorityProperty = "X-TODOTXT-PRIORITY"

    /// One task from one line.
    static func task(_ text: String, number: Int, at location: SourceLocation, diagnostics: inout [Diagnostic]) -> CalendarItem {
        var item = CalendarItem(kind: .todo, uid: "todotxt-\(number)", title: "")
        var rest = Substring(text)
        func takeDate() -> CivilDate? {
            let word = rest.prefix { $0 != " " }
            guard word.count == 10, let date = try? CivilDate(iso: word) else { return nil }
            rest = rest.dropFirst(word.count).drop { $0 == " " }
            return date
        }
        func setPriority(_ letter: Character) {
            item.priority = priorities[letter] ?? .low
            if priorities[letter] == nil { item.carried.append(CarriedProperty(name: priorityProperty, value: String(letter))) }
        }
        if rest.hasPrefix("x ") {
            item.isCompleted = true
            rest = rest.dropFirst(2).drop { $0 == " " }
            if let done = takeDate() {
                item.completedAt = .date(done)
                if let created = takeDate() { item.created = .date(created) }
            }
        } else {
            let letter = rest.dropFirst().first
            if rest.count >= 4, rest.first == "(", let letter, letter.isASCII, letter.isUppercase, rest.dropFirst(2).hasPrefix(") ") {
                setPriority(letter)
                rest = rest.dropFirst(4).drop { $0 == " " }
            }
            if let created = takeDate() { item.created = .date(created) }
        }
        var kept: [Substring] = []
        for word in rest.split(separator: " ") {
            let column = text.distance(from: text.startIndex, to: word.startIndex) + 1
            if word.hasPrefix("due:") {
                if let date = try? CivilDate(iso: word.dropFirst(4)) {
                    item.due = .date(date)
                    continue
                }
                diagnostics.append(Diagnostic(.warning, TodoTxtMessages.message("todotxt.bad-date", String(word)),
                                              at: SourceLocation(file: location.file, line: location.line, column: column)))
            } else if word.hasPrefix("uid:"), word.count > 4 {
                item.uid = String(word.dropFirst(4))
                continue
            } else if item.isCompleted, word.hasPrefix("pri:"), word.count == 5, let letter = word.last, letter.isASCII, letter.isUppercase {
                setPriority(letter)
                continue
            } else if word.hasPrefix("+"), word.count > 1 {
                item.categories.append(String(word.dropFirst()))
            }
            kept.append(word)
        }
        item.title = kept.joined(separator: " ")
        return item
    }

    /// One line for one task.
    static func line(_ item: CalendarItem) -> String {
        var words: [String] = []
        let letter = item.carried.first { $0.name == priorityProperty }?.value
            ?? priorities.first { $0.value == item.priority }.map { String($0.key) }
        if item.isCompleted {
            words.append("x")
            if let done = item.completedAt {
                words.append(done.day.description)
                if let created = item.created { words.append(created.day.description) }
            }
        } else {
            if let letter { words.append("(\(letter))") }
            if let created = item.created { words.append(created.day.description) }
        }
        let title = item.title.split(whereSeparator: \.isNewline).joined(separator: " ")
        if !title.isEmpty { words.append(title) }
        let projects = Set(title.split(separator: " ").filter { $0.hasPrefix("+") }.map { String($0.dropFirst()) })
        for category in item.categories where !projects.contains(category) {
            words.append("+" + category.split(separator: " ").joined(separator: "-"))
        }
        if let due = item.due { words.append("due:" + due.day.description) }
        if !item.uid.hasPrefix("todotxt-") { words.append("uid:" + item.uid.split(separator: " ").joined(separator: "-")) }
        if item.isCompleted, let letter { words.append("pri:" + letter) }
        return words.joined(separator: " ")
    }
}
