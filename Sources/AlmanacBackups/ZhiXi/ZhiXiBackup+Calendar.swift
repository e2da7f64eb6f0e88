import AlmanacCore
import AlmanacICU

/// 知习's plan as a calendar and back: study tasks and review tasks are to-dos on their days, what
/// kind of task and which review method are categories in the reader's language (学习, 复习, 间隔重复),
/// and a review carries its knowledge item, library and spacing (`CarriedName.zhiXiItemID`). What
/// was studied, the libraries' contents, the settings and achievements are not dated things to do:
/// they are named as dropped.
extension ZhiXiBackup {
    func agenda(context: CodecContext) -> (Agenda, [Diagnostic]) {
        var losses = Losses()
        for record in studyRecords { losses.dropped("studyRecords", of: "\(record.date) \(record.minutes) min") }
        for library in libraries where !library.items.isEmpty { losses.dropped("libraries.items", of: library.name) }
        if settings != nil { losses.dropped("settings", of: "知习") }
        for achievement in achievements { losses.dropped("achievements", of: achievement.title) }
        return (calendar(language: AppTerms.language(context)), losses.diagnostics(target: context.targetFormat ?? ModelKind.agenda.rawValue))
    }

    /// The tasks and reviews as to-dos, their categories in `language`.
    func calendar(language: Language = .english) -> Agenda {
        let backup = self
        var agenda = Agenda(name: "知习")
        var titles: [String: String] = [:]
        for library in backup.libraries { for item in library.items { titles[item.id] = item.title } }
        for task in backup.studyTasks {
            var item = CalendarItem(kind: .todo, uid: task.id, title: task.title, due: .date(task.date), isCompleted: task.done)
            if let minutes = task.minutes { item.duration = "PT\(minutes)M" }
            item.categories = [AppTerms.word("study", language)]
            agenda.items.append(item)
        }
        for review in backup.reviewTasks {
            var item = CalendarItem(kind: .todo, uid: review.id, title: titles[review.itemID] ?? review.itemID, due: .date(review.due),
                                    isCompleted: review.done)
            item.categories = [AppTerms.word("review", language), AppTerms.ids.contains(review.method) ? AppTerms.word(review.method, language) : review.method]
            // The knowledge item's library, and the spacing so far, so that the task comes back whole.
            var parameters: [CarriedProperty.Parameter] = []
            if let library = backup.libraries.first(where: { $0.items.contains { $0.id == review.itemID } }) {
                parameters = [.init(name: CarriedName.Parameter.libraryID, values: [library.id]), .init(name: CarriedName.Parameter.library, values: [library.name])]
            }
            item.carried.append(CarriedProperty(name: CarriedName.zhiXiItemID, parameters: parameters, text: review.itemID))
            if let days = review.intervalDays { item.carried.append(CarriedProperty(name: CarriedName.zhiXiInterval, value: String(days))) }
            if let count = review.repetitions { item.carried.append(CarriedProperty(name: CarriedName.zhiXiRepetitions, value: String(count))) }
            agenda.items.append(item)
        }
        return agenda
    }

    /// The item fields a review task cannot hold.
    static let reviewUnheld = CalendarItem.Field.unheld(holding: [.completion])
    /// A calendar as 知习's plan: review to-dos (category `review`, with the knowledge item they
    /// review) become review tasks; every other dated item becomes a study task on its day, its
    /// length in minutes. A knowledge item's content is not in a calendar: items come back with
    /// their titles, in their library when the calendar names it, else in one named after the
    /// calendar.
    static func make(from agenda: Agenda, context: CodecContext) -> (ZhiXiBackup, [Diagnostic]) {
        var losses = Losses()
        let zone = context.readingZone
        var libraries: [ZhiXiBackup.Library] = []
        var tasks: [ZhiXiBackup.StudyTask] = []
        var reviews: [ZhiXiBackup.ReviewTask] = []
        var usedIDs: Set<String> = []
        func uniqueID(_ id: String) -> String {
            var candidate = id
            var number = 2
            while usedIDs.contains(candidate) { candidate = "\(id)-\(number)"; number += 1 }
            usedIDs.insert(candidate)
            return candidate
        }
        for item in agenda.items {
            if item.recurrenceID != nil {
                losses.dropped("recurrenceID", of: item.title)
                continue
            }
            guard let when = (item.due ?? item.start).map({ WallClockSeconds.local($0, in: zone) }) else {
                losses.dropped(item.kind == .todo ? "due" : "start", of: item.title)
                continue
            }
            if let recurrence = item.recurrence {
                if !recurrence.rules.isEmpty { losses.approximated("recurrence.rules", of: item.title, as: "its first date only") }
                if recurrence.hasExtraDates { losses.dropped("recurrence.dates", of: item.title) }
            }
            // The categories that say what kind of task it is (in any language) are not lost.
            let kinds = item.categories.compactMap(AppTerms.id(of:))
            var rest = item
            rest.categories.removeAll { category in AppTerms.id(of: category).map { $0 == "study" || $0 == "review" || ZhiXiBackup.methods.contains($0) } ?? false }
            let reviewed = kinds.contains("review") ? item.carried.first { $0.name == CarriedName.zhiXiItemID } : nil
            if kinds.contains("review") {
                // A review read from a table (复习、间隔重复 in a region-style CSV) has no item id:
                // the knowledge item is the one with its title, or a new one.
                let known = libraries.lazy.flatMap(\.items).first { $0.title == item.title }?.id
                let itemID = reviewed.map { $0.text } ?? known ?? uniqueID("item-" + item.uid)
                let libraryID = reviewed.flatMap { $0.parameter(CarriedName.Parameter.libraryID) } ?? "calendar"
                let libraryName = reviewed.flatMap { $0.parameter(CarriedName.Parameter.library) } ?? agenda.name ?? "Calendar"
                var index = libraries.firstIndex { $0.id == libraryID }
                if index == nil {
                    libraries.append(.init(id: libraryID, name: libraryName, items: []))
                    index = libraries.count - 1
                }
                if !libraries.contains(where: { $0.items.contains { $0.id == itemID } }) {
                    libraries[index!].items.append(.init(id: itemID, title: item.title, content: "", subject: nil, tags: [], createdAt: nil, updatedAt: nil))
                }
                let method = kinds.first { ZhiXiBackup.methods.contains($0) } ?? "spacedRepetition"
                reviews.append(.init(id: uniqueID(item.uid), itemID: itemID, method: method, due: when.day,
                                     intervalDays: item.carriedText(CarriedName.zhiXiInterval).flatMap(Int.init),
                                     repetitions: item.carriedText(CarriedName.zhiXiRepetitions).flatMap(Int.init), done: item.isCompleted))
                losses.unheld(rest, among: Self.reviewUnheld)
                continue
            }
            // How long: a to-do's DURATION, an event's end minus its start.
            var minutes: Int?
            if let text = item.duration, let duration = try? CalendarDuration(parsing: text), duration.totalSeconds > 0 {
                minutes = duration.totalSeconds / 60
            } else if let start = item.start, let end = item.end, !start.isAllDay,
                      let from = try? start.instant(defaultZone: zone), let to = try? end.instant(defaultZone: zone) {
                minutes = Int(to.timeIntervalSince(from)) / 60
            }
            var holds: Set<CalendarItem.Field> = [.completion]
            if let length = minutes, (1...1440).contains(length) { holds.insert(.end) } else { minutes = nil }
            tasks.append(.init(id: uniqueID(item.uid), title: item.title, date: when.day, minutes: minutes, done: item.isCompleted))
            losses.unheld(rest, holds: holds)
        }
        return (ZhiXiBackup(exportedAt: AppTime.now(context), libraries: libraries, studyTasks: tasks, reviewTasks: reviews, studyRecords: []),
                losses.diagnostics(target: ZhiXiBackup.format))
    }
}
