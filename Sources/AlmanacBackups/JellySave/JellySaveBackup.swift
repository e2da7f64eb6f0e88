public import AlmanacCore
import AlmanacCalendar
import AlmanacICU
public import Foundation

/// JellySave's backup (資料備份): five kinds of accounts with balances in exact decimals, balance
/// changes, asset snapshots, saving goals, the notification settings and the theme. Version 3 is
/// current: an account's opening balance (需求2.2 初始餘額) and the theme (需求11). Version 2 reads
/// unchanged (without them); version 1 (account types written in Chinese, amounts as JSON numbers)
/// is migrated when read.
public struct JellySaveBackup: Hashable, Sendable {
    public static let format = "jellysave-backup"
    public static let version = 3
    static let themes = ["system", "light", "dark"]

    public struct Notifications: Hashable, Sendable {
        public var enabled: Bool
        public var time: String
        public var kinds: [String]
    }

    public struct Snapshot: Hashable, Sendable {
        public var id: String
        public var date: CivilDate
        public var total: Decimal
        /// The total of each kind of account that day (version 3), in the base currency.
        public var byKind: [Account.Kind: Decimal]? = nil
    }

    public struct Goal: Hashable, Sendable {
        public var id: String
        public var name: String
        public var target: Decimal
        public var saved: Decimal
        public var currency: String
        public var deadline: CivilDate?
        public var createdAt: String?
    }

    public var exportedAt: String
    public var baseCurrency: String
    public var accounts: [Account]
    public var balanceChanges: [BalanceChange]
    public var snapshots: [Snapshot]
    public var goals: [Goal]
    public var notifications: Notifications
    /// The app's theme (需求11): system, light or dark; nil when the backup does not say.
    public var theme: String? = nil

    static let kinds = ["cash", "stock", "foreignCurrency", "insurance", "crypto"]
    /// Version 1's account types.
    static let legacyKinds = ["現金": "cash", "股票": "stock", "外幣": "foreignCurrency", "保險": "insurance", "加密貨幣": "crypto"]

    static func currency(_ reader: inout BackupReader, _ object: [(String, JSONValue)], _ key: String, _ path: String,
                         required: Bool = true) -> String? {
        guard let code = reader.string(object, key, path, required: required) else { return nil }
        // ISO 4217's three letters, or a crypto code of up to five (BTC, USDT), as tables are read.
        guard (3...5).contains(code.count), code.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            reader.error(.backupNotACurrency(text: code), at: path + "/" + key)
            return nil
        }
        return code
    }

    /// v1 stored amounts as JSON numbers; they are read by their shortest decimal text.
    static func amount(_ reader: inout BackupReader, _ object: [(String, JSONValue)], _ key: String, _ path: String, version: Int,
                       required: Bool = true) -> Decimal? {
        if version == 1, let value = BackupReader.member(object, key) {
            switch value {
            case .integer(let number): return Decimal(number)
            case .number(let number): return Decimal(string: "\(number)", locale: Locale(identifier: "en_US_POSIX"))
            default: break
            }
        }
        return reader.amount(object, key, path, required: required)
    }

    static func read(_ top: [(String, JSONValue)], version: Int, reader: inout BackupReader) -> JellySaveBackup {
        let exportedAt = reader.timestamp(top, "exportedAt", "") ?? ""
        let baseCurrency = currency(&reader, top, "baseCurrency", "", required: false) ?? "TWD"
        var accounts: [Account] = []
        for (index, value) in reader.array(top, "accounts", "", required: true).enumerated() {
            let path = "/accounts/\(index)"
            var fields: BackupFields = version == 1 ? ["id", "name", "type", "currency", "balance", "updatedAt", "notes"]
                                                   : ["id", "name", "kind", "currency", "balance", "updatedAt", "notes"]
            if version >= 3 { fields.insert("openingBalance") }
            guard let object = reader.object(value, path, fields: fields) else { continue }
            let id = reader.string(object, "id", path, nonEmpty: true)
            let name = reader.string(object, "name", path, nonEmpty: true)
            let kind: String? = version == 1
                ? reader.string(object, "type", path, oneOf: legacyKinds.keys.sorted()).flatMap { legacyKinds[$0] }
                : reader.string(object, "kind", path, oneOf: kinds)
            let code = currency(&reader, object, "currency", path, required: false) ?? baseCurrency
            let balance = amount(&reader, object, "balance", path, version: version)
            let updated = reader.timestamp(object, "updatedAt", path, required: false)
            let opening = version >= 3 ? reader.amount(object, "openingBalance", path, required: false) : nil
            guard let id, let name, let kind, let balance else { continue }
            accounts.append(Account(id: id, name: name, kind: Account.Kind(rawValue: kind)!, currency: code, balance: balance,
                                    updatedAt: updated.flatMap(DateValue.init(timestamp:)), notes: reader.string(object, "notes", path, required: false),
                                    openingBalance: opening))
        }
        reader.uniqueIDs(accounts.enumerated().map { ($1.id, "/accounts/\($0)/id") })
        let accountIDs = Set(accounts.map(\.id))

        var changes: [BalanceChange] = []
        for (index, value) in reader.array(top, "balanceChanges", "").enumerated() {
            let path = "/balanceChanges/\(index)"
            guard let object = reader.object(value, path, fields: ["id", "accountId", "date", "amount", "note"]) else { continue }
            let id = reader.string(object, "id", path, nonEmpty: true)
            let account = reader.string(object, "accountId", path)
            if let account, !accountIDs.contains(account) { reader.error(.backupUnknownReference(id: account, collection: "/accounts"), at: path + "/accountId") }
            let date = reader.date(object, "date", path)
            let change = amount(&reader, object, "amount", path, version: version)
            guard let id, let account, let date, let change else { continue }
            changes.append(BalanceChange(id: id, accountID: account, amount: change, date: .date(date), note: reader.string(object, "note", path, required: false)))
        }
        reader.uniqueIDs(changes.enumerated().map { ($1.id, "/balanceChanges/\($0)/id") })

        var snapshots: [Snapshot] = []
        for (index, value) in reader.array(top, "snapshots", "").enumerated() {
            let path = "/snapshots/\(index)"
            guard let object = reader.object(value, path, fields: version >= 3 ? ["id", "date", "total", "byKind"] : ["id", "date", "total"]) else { continue }
            let id = reader.string(object, "id", path, nonEmpty: true)
            let date = reader.date(object, "date", path)
            let total = amount(&reader, object, "total", path, version: version)
            var byKind: [Account.Kind: Decimal]?
            if version >= 3, let kinds = reader.object(BackupReader.member(object, "byKind"), path + "/byKind", fields: BackupFields(Self.kinds)) {
                byKind = [:]
                for kind in Self.kinds where BackupReader.member(kinds, kind) != nil {
                    if let value = reader.amount(kinds, kind, path + "/byKind") { byKind?[Account.Kind(rawValue: kind)!] = value }
                }
            }
            guard let id, let date, let total else { continue }
            snapshots.append(Snapshot(id: id, date: date, total: total, byKind: byKind))
        }
        reader.uniqueIDs(snapshots.enumerated().map { ($1.id, "/snapshots/\($0)/id") })

        var goals: [Goal] = []
        for (index, value) in reader.array(top, "goals", "").enumerated() {
            let path = "/goals/\(index)"
            guard let object = reader.object(value, path, fields: ["id", "name", "target", "saved", "currency", "deadline", "createdAt"]) else { continue }
            let id = reader.string(object, "id", path, nonEmpty: true)
            let name = reader.string(object, "name", path, nonEmpty: true)
            let target = amount(&reader, object, "target", path, version: version)
            let saved = amount(&reader, object, "saved", path, version: version, required: false) ?? 0
            if let target, target <= 0 { reader.error(.backupNotPositive(field: target.backupText), at: path + "/target") }
            let code = currency(&reader, object, "currency", path, required: false) ?? baseCurrency
            let deadline = reader.date(object, "deadline", path, required: false)
            let created = reader.timestamp(object, "createdAt", path, required: false)
            guard let id, let name, let target else { continue }
            goals.append(Goal(id: id, name: name, target: target, saved: saved, currency: code, deadline: deadline, createdAt: created))
        }
        reader.uniqueIDs(goals.enumerated().map { ($1.id, "/goals/\($0)/id") })

        var notifications = Notifications(enabled: false, time: "21:00", kinds: ["motivation"])
        if let object = reader.object(BackupReader.member(top, "notifications"), "/notifications", fields: ["enabled", "time", "kinds"]) {
            notifications.enabled = reader.bool(object, "enabled", "/notifications", default: false)
            notifications.time = reader.time(object, "time", "/notifications", required: false) ?? "21:00"
            var kinds: [String] = []
            for (index, kind) in reader.array(object, "kinds", "/notifications").enumerated() {
                if case .string(let text) = kind, ["tips", "motivation"].contains(text) { kinds.append(text) } else {
                    reader.error(.backupNotOneOf(text: kind.string ?? BackupReader.typeName(kind), choices: "tips, motivation"), at: "/notifications/kinds/\(index)")
                }
            }
            notifications.kinds = kinds
        }
        let theme = version >= 3 ? reader.string(top, "theme", "", required: false, oneOf: themes) : nil
        return JellySaveBackup(exportedAt: exportedAt, baseCurrency: baseCurrency, accounts: accounts, balanceChanges: changes,
                               snapshots: snapshots, goals: goals, notifications: notifications, theme: theme)
    }

    public var json: JSONValue {
        .object([
            ("format", .string(Self.format)), ("version", .integer(Self.version)), ("exportedAt", .string(exportedAt)),
            ("baseCurrency", .string(baseCurrency)),
            ("accounts", .array(accounts.map { account in
                var members: [(String, JSONValue)] = [("id", .string(account.id)), ("name", .string(account.name)),
                                                      ("kind", .string(account.kind.rawValue)), ("currency", .string(account.currency)),
                                                      ("balance", .string(account.balance.backupText))]
                if let opening = account.openingBalance { members.append(("openingBalance", .string(opening.backupText))) }
                if let updated = account.updatedAt?.timestamp() { members.append(("updatedAt", .string(updated))) }
                if let notes = account.notes { members.append(("notes", .string(notes))) }
                return .object(members)
            })),
            ("balanceChanges", .array(balanceChanges.map { change in
                var members: [(String, JSONValue)] = [("id", .string(change.id)), ("accountId", .string(change.accountID)),
                                                      ("date", .string(change.date.day.description)), ("amount", .string(change.amount.backupText))]
                if let note = change.note { members.append(("note", .string(note))) }
                return .object(members)
            })),
            ("snapshots", .array(snapshots.map { snapshot in
                var members: [(String, JSONValue)] = [("id", .string(snapshot.id)), ("date", .string(snapshot.date.description)),
                                                      ("total", .string(snapshot.total.backupText))]
                if let byKind = snapshot.byKind {
                    members.append(("byKind", .object(Self.kinds.compactMap { kind in
                        byKind[Account.Kind(rawValue: kind)!].map { (kind, .string($0.backupText)) }
                    })))
                }
                return .object(members)
            })),
            ("goals", .array(goals.map { goal in
                var members: [(String, JSONValue)] = [("id", .string(goal.id)), ("name", .string(goal.name)), ("target", .string(goal.target.backupText)),
                                                      ("saved", .string(goal.saved.backupText)), ("currency", .string(goal.currency))]
                if let deadline = goal.deadline { members.append(("deadline", .string(deadline.description))) }
                if let created = goal.createdAt { members.append(("createdAt", .string(created))) }
                return .object(members)
            })),
            ("notifications", .object([("enabled", .bool(notifications.enabled)), ("time", .string(notifications.time)),
                                       ("kinds", .array(notifications.kinds.map(JSONValue.string)))])),
        ] + (theme.map { [("theme", JSONValue.string($0))] } ?? []))
    }
}
