public import AlmanacICU
public import Foundation

/// Money: accounts, their balance changes, asset snapshots and saving goals (JellySave).
///
/// Amounts are exact decimals in the account's ISO 4217 currency, never binary floating point.
public struct Ledger: Hashable, Sendable, Codable {
    /// The currency totals are shown in (TWD for JellySave).
    public var baseCurrency: String
    public var accounts: [Account]
    public var balanceChanges: [BalanceChange]
    public var snapshots: [AssetSnapshot]
    public var goals: [SavingGoal]

    public init(baseCurrency: String = "TWD", accounts: [Account] = [], balanceChanges: [BalanceChange] = [],
                snapshots: [AssetSnapshot] = [], goals: [SavingGoal] = []) {
        self.baseCurrency = baseCurrency
        self.accounts = accounts
        self.balanceChanges = balanceChanges
        self.snapshots = snapshots
        self.goals = goals
    }
}

public struct Account: Hashable, Sendable, Codable {
    /// JellySave's five kinds of account.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable, CodingKeyRepresentable {
        case cash, stock, foreignCurrency, insurance, crypto
    }

    public var id: String
    public var name: String
    public var kind: Kind
    public var currency: String
    public var balance: Decimal
    /// When the balance was last updated (an instant: `2025-03-05T06:30:00Z`).
    public var updatedAt: DateValue?
    public var notes: String?
    /// The balance the account was opened with (JellySave's 初始餘額), when known.
    public var openingBalance: Decimal?

    public init(id: String, name: String, kind: Kind, currency: String = "TWD", balance: Decimal,
                updatedAt: DateValue? = nil, notes: String? = nil, openingBalance: Decimal? = nil) {
        self.id = id
        self.name = name
        self.kind = kind
        self.currency = currency
        self.balance = balance
        self.updatedAt = updatedAt
        self.notes = notes
        self.openingBalance = openingBalance
    }
}

public struct BalanceChange: Hashable, Sendable, Codable {
    public var id: String
    public var accountID: String
    /// Signed: deposits are positive.
    public var amount: Decimal
    public var date: DateValue
    public var note: String?

    public init(id: String, accountID: String, amount: Decimal, date: DateValue, note: String? = nil) {
        self.id = id
        self.accountID = accountID
        self.amount = amount
        self.date = date
        self.note = note
    }
}

/// The total of all accounts on a day, in the base currency.
public struct AssetSnapshot: Hashable, Sendable, Codable {
    /// The app's id for the snapshot, kept so that a restore matches it.
    public var id: String?
    public var date: CivilDate
    public var total: Decimal
    /// The total of each kind of account that day, in the base currency, when the app kept it.
    public var byKind: [Account.Kind: Decimal]?

    public init(id: String? = nil, date: CivilDate, total: Decimal, byKind: [Account.Kind: Decimal]? = nil) {
        self.id = id
        self.date = date
        self.total = total
        self.byKind = byKind
    }
}

public struct SavingGoal: Hashable, Sendable, Codable {
    public var id: String
    public var name: String
    public var target: Decimal
    public var saved: Decimal
    public var currency: String
    public var deadline: CivilDate?
    /// When the goal was set (an instant, with the offset it was written with).
    public var createdAt: DateValue?

    public init(id: String, name: String, target: Decimal, saved: Decimal = 0, currency: String = "TWD",
                deadline: CivilDate? = nil, createdAt: DateValue? = nil) {
        self.id = id
        self.name = name
        self.target = target
        self.saved = saved
        self.currency = currency
        self.deadline = deadline
        self.createdAt = createdAt
    }
}

extension Ledger {
    enum CodingKeys: String, CodingKey { case baseCurrency, accounts, balanceChanges, snapshots, goals }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(baseCurrency: try c.decodeIfPresent(String.self, forKey: .baseCurrency) ?? "TWD",
                  accounts: try c.decodeIfPresent([Account].self, forKey: .accounts) ?? [],
                  balanceChanges: try c.decodeIfPresent([BalanceChange].self, forKey: .balanceChanges) ?? [],
                  snapshots: try c.decodeIfPresent([AssetSnapshot].self, forKey: .snapshots) ?? [],
                  goals: try c.decodeIfPresent([SavingGoal].self, forKey: .goals) ?? [])
    }
}
