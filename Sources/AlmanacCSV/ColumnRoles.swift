import AlmanacCore
import AlmanacICU

/// What a column of a spreadsheet holds, recognised from its header in English, Simplified or
/// Traditional Chinese (the words come from Locales/Almanac, plus common synonyms), or named
/// explicitly with `--columns title=名稱,date=日期`.
public enum ColumnRole: String, CaseIterable, Sendable {
    case uid, title, date, time, end, location, category, notes, priority, completed, type, `repeat`
    case amount, account, currency, balance, updated, target, saved, deadline, opening
    /// Written only: days left or since (還有 12 天).
    case relative
    /// A snapshot's total assets. Written only: a goal's progress, the monthly amount still
    /// needed, a snapshot's change from the one before and that change as a percentage.
    case progress, monthly, total, change, changePercent
    /// A day's lunar month and day (八月十五, 臘月最後一天), which a lunar repeat follows.
    case lunar
    /// Alerts before or after a day (`-PT15H`, `-P1D`), the colour and the creation time, which the
    /// `iso` style writes so that an export imports back whole.
    case alarm, color, created

    /// The role's header (`csv.column.title`).
    var headerMessage: Message { Message(key: "csv.column.\(rawValue)", table: ModuleMessages.table) }

    /// Header words that mean this role, lowercased, beyond the catalog's own headers.
    var synonyms: [String] {
        switch self {
        case .uid: ["id", "uid", "identifier", "編號", "编号", "識別碼", "序號", "序号"]
        case .title: ["name", "title", "summary", "subject", "event", "名稱", "名称", "標題", "标题", "事件", "主旨", "項目", "项目", "名字"]
        case .date: ["date", "start", "start date", "day", "when", "日期", "開始", "开始", "開始日期", "开始日期", "日子"]
        case .time: ["time", "start time", "時間", "时间", "開始時間", "开始时间"]
        case .end: ["end", "end date", "until", "結束", "结束", "結束日期", "结束日期"]
        case .location: ["location", "place", "where", "地點", "地点", "位置"]
        case .category: ["category", "categories", "tag", "tags", "分類", "分类", "類別", "类别", "標籤", "标签"]
        case .notes: ["notes", "note", "description", "memo", "remarks", "comment", "備註", "备注", "說明", "说明", "描述", "附註"]
        case .priority: ["priority", "優先順序", "优先级", "優先級", "重要性"]
        case .completed: ["completed", "done", "complete", "已完成", "完成", "狀態", "状态"]
        case .type: ["type", "kind", "類型", "类型", "種類", "种类"]
        case .repeat: ["repeat", "recurrence", "重複", "重复", "週期", "周期"]
        case .amount: ["amount", "amount_twd", "value", "金額", "金额", "金額(twd)", "金額（新台幣）", "數目", "费用", "費用"]
        case .account: ["account", "account name", "帳戶", "账户", "帳號", "账号", "戶頭"]
        case .currency: ["currency", "幣別", "币种", "貨幣", "货币", "幣種"]
        case .balance: ["balance", "餘額", "余额", "結餘", "结余"]
        case .updated: ["updated", "last updated", "更新時間", "更新时间", "更新日期"]
        case .target: ["target", "goal", "目標金額", "目标金额", "目標", "目标"]
        case .saved: ["saved", "已存金額", "已存金额", "已存", "已儲蓄", "已储蓄"]
        case .deadline: ["deadline", "due", "截止日期", "期限", "到期日"]
        case .opening: ["opening balance", "initial balance", "初始餘額", "初始余额", "期初餘額", "期初余额", "開戶金額"]
        case .total: ["total", "total assets", "總資產", "总资产", "資產總額", "资产总额", "總額", "总额"]
        case .lunar: ["lunar", "lunar date", "農曆", "农历", "農曆日期", "农历日期", "陰曆", "阴历"]
        case .alarm: ["alarm", "alarms", "alert", "alerts", "提醒", "提醒時間", "提醒时间"]
        case .color: ["color", "colour", "顏色", "颜色"]
        case .created: ["created", "created at", "建立時間", "创建时间", "建立日期", "创建日期"]
        case .relative, .progress, .monthly, .change, .changePercent: []
        }
    }

    /// The header a person in a language reads for this role.
    func header(in language: Language) -> String { headerMessage.rendered(in: language) }
}

/// Which column holds which role in a table.
public struct ColumnMap: Sendable {
    public private(set) var roles: [ColumnRole: Int] = [:]

    public subscript(role: ColumnRole) -> Int? { roles[role] }

    /// Recognises headers, then applies an explicit mapping (`title=名稱,date=日期`) on top.
    public init(columns: [String], explicit: String?, fileName: String?) throws(Diagnostic) {
        let normalized = columns.map { Self.normalize($0) }
        for role in ColumnRole.allCases {
            var words = Set(role.synonyms.map(Self.normalize))
            for language in Language.allCases { words.insert(Self.normalize(role.header(in: language))) }
            // An amount's header may name its currency (`金額（TWD）`, `Amount (USD)`).
            func names(_ index: Int) -> Bool {
                words.contains(normalized[index])
                    || role == .amount && Self.currencySuffix(of: columns[index]).map { words.contains(Self.normalize($0.rest)) } == true
            }
            if let index = normalized.indices.first(where: { names($0) && !roles.values.contains($0) }) {
                roles[role] = index
            }
        }
        guard let explicit, !explicit.isEmpty else { return }
        for pair in explicit.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let role = ColumnRole(rawValue: parts[0].lowercased()) else {
                throw Diagnostic.error(.csvColumnsMalformed(pair: String(pair)))
            }
            guard let index = columns.firstIndex(of: parts[1]) ?? normalized.firstIndex(of: Self.normalize(parts[1])) else {
                throw Diagnostic.error(.csvUnknownColumn(name: parts[1], columns: columns.joined(separator: ", ")), at: SourceLocation(file: fileName))
            }
            for (other, column) in roles where column == index { roles[other] = nil }
            roles[role] = index
        }
    }

    /// `--option currency=TWD`: an ISO 4217 code (any case), or nil when not given.
    public static func currencyOption(_ context: CodecContext) throws(Diagnostic) -> String? {
        guard let given = context.options["currency"] else { return nil }
        let code = given.uppercased()
        guard code.utf8.count == 3, code.utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else {
            throw Diagnostic.error(.optionInvalidValue(option: "currency", value: given, choices: "an ISO 4217 code (TWD, USD, CNY)"))
        }
        return code
    }

    /// The currency an amount column's header names (`amount_twd`, `Amount (USD)`, `金額（新台幣）`),
    /// an ISO 4217 code; nil when it names none.
    public static func currency(ofHeader header: String) -> String? {
        currencySuffix(of: header)?.currency
    }

    /// A header's currency and the header without it (`Amount (TWD)`: TWD, `Amount`).
    static func currencySuffix(of header: String) -> (currency: String, rest: String)? {
        let text = header.trimmingCharacters(in: .whitespaces)
        // What follows the word: after `_`, a space, or in brackets of either width.
        var tail = Substring(text)
        let rest: Substring
        if let open = text.lastIndex(where: { $0 == "(" || $0 == "（" }) {
            tail = text[text.index(after: open)...].prefix { $0 != ")" && $0 != "）" }
            rest = text[..<open]
        } else if let separator = text.lastIndex(where: { $0 == "_" || $0 == " " }) {
            tail = text[text.index(after: separator)...]
            rest = text[..<separator]
        } else {
            return nil
        }
        let word = tail.trimmingCharacters(in: .whitespaces)
        let code: String?
        if word.count == 3, word.allSatisfy({ $0.isASCII && $0.isLetter }) {
            code = CurrencyFormat.isKnown(word.uppercased()) ? word.uppercased() : nil
        } else {
            code = CellReader.currencyMarkers.first { $0.0 == word || $0.0 == word.uppercased() }?.1
        }
        return code.map { ($0, rest.trimmingCharacters(in: .whitespaces)) }
    }

    static func normalize(_ header: String) -> String {
        header.lowercased().trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: " ")
    }
}

import Foundation
