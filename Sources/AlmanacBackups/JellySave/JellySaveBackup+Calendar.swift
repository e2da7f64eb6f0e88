import AlmanacCore

/// JellySave's saving goals as a calendar: each goal's deadline an all-day event, with the goal's
/// target, what is saved and the currency carried (`CarriedName.amount`). Money has no date to be
/// put on: the accounts, balance changes and snapshots are named as dropped.
extension JellySaveBackup {
    func agenda(context: CodecContext) -> (Agenda, [Diagnostic]) {
        var losses = Losses()
        for account in accounts { losses.dropped("accounts", of: account.name) }
        let names = Dictionary(accounts.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        for change in balanceChanges { losses.dropped("balanceChanges", of: "\(names[change.accountID] ?? change.accountID) \(change.date.day)") }
        for snapshot in snapshots { losses.dropped("snapshots", of: snapshot.date.description) }
        for goal in goals where goal.deadline == nil { losses.dropped("goals", of: goal.name) }  // no deadline to put it on
        return (calendar(language: AppTerms.language(context)), losses.diagnostics(target: context.targetFormat ?? ModelKind.agenda.rawValue))
    }

    /// The goals with a deadline as a calendar, their category the word for a goal in `language`.
    func calendar(language: Language = .english) -> Agenda {
        let backup = self
        var agenda = Agenda(name: "JellySave")
        for goal in backup.goals {
            guard let deadline = goal.deadline else { continue }
            var item = CalendarItem(kind: .event, uid: goal.id + "-deadline", title: goal.name, start: .date(deadline))
            item.categories = [AppTerms.word("goal", language)]
            item.carried.append(CarriedProperty(name: CarriedName.amount, value: goal.target.backupText))
            item.carried.append(CarriedProperty(name: CarriedName.saved, value: goal.saved.backupText))
            item.carried.append(CarriedProperty(name: CarriedName.currency, value: goal.currency))
            agenda.items.append(item)
        }
        return agenda
    }

    /// A calendar is not money: a JellySave backup is made from a ledger (a table of amounts, another JellySave backup).
    static func make(from agenda: Agenda, context: CodecContext) throws(Diagnostic) -> (JellySaveBackup, [Diagnostic]) {
        throw Diagnostic.error(.convertModelMismatch(model: ModelKind.agenda.rawValue, format: format, expected: ModelKind.ledger.rawValue))
    }
}
