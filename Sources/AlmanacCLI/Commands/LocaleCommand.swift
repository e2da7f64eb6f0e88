import ArgumentParser
import AlmanacCore
import AlmanacICU
import Foundation

struct LocaleCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "locale", abstract: L(.cliLocaleAbstract), subcommands: [Show.self])
    }

    struct Show: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(commandName: "show", abstract: L(.cliLocaleShowAbstract), discussion: L(.cliLocaleShowDiscussion))
        }

        @Argument(help: ArgumentHelp(L(.cliArgumentLocale), valueName: "LOCALE"), completion: .list(Completions.regions)) var locale: String
        @Option(help: ArgumentHelp(L(.cliOptionAmount), valueName: "DECIMAL")) var amount = "1234567.5"
        @Option(help: ArgumentHelp(L(.cliOptionCurrency), valueName: "CODE")) var currency = "TWD"
        @Option(help: ArgumentHelp(L(.cliOptionRounding), valueName: "cash|standard"), completion: .list(["cash", "standard"])) var rounding = "cash"
        @Option(help: ArgumentHelp(L(.cliOptionSymbol), valueName: "locale|iso|TEXT"), completion: .list(["locale", "iso"])) var symbol = "locale"
        @Option(help: ArgumentHelp(L(.cliOptionDate), valueName: "YYYY-MM-DD")) var date: String?
        @Option(name: .customLong("time-zone"), help: ArgumentHelp(L(.cliOptionTimeZone), valueName: "ZONE")) var timeZone: String?
        @Flag(help: ArgumentHelp(L(.cliOptionJson))) var json = false
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let session = Session.current!
            let locale = try Arguments.locale(self.locale)
            let zone = try timeZone.map(Arguments.timeZone) ?? session.machineZone
            guard let rounding = CurrencyFormat.Rounding(rawValue: rounding) else {
                throw CommandFailure.usage(.error(.cliValueChoices(value: self.rounding, choices: "cash, standard")))
            }
            guard let value = Decimal(string: amount), amount.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" }) else {
                throw CommandFailure.usage(.error(.numberInvalid(text: amount)))
            }
            let symbolChoice: CurrencyFormat.Symbol = switch symbol {
            case "locale": .locale
            case "iso": .isoCode
            default: .explicit(symbol)
            }
            let now = Date()
            let day = try date.map(Arguments.date) ?? zone.wallTime(at: now).date
            let sampleTime = try CivilDateTime(date: day, hour: 14, minute: 30)
            let preview = try Preview(locale: locale, zone: zone, day: day, time: sampleTime, amount: value,
                                      currency: currency, rounding: rounding, symbol: symbolChoice)
            if json {
                session.write(try CanonicalJSON.encode(preview))
                return
            }
            session.print("\(locale.bcp47)  \(locale.displayName(in: session.language.locale))  (\(zone.identifier))")
            var rows: [[String]] = [
                [session.text(.localeRowDate), preview.date.medium + "   " + preview.date.full],
                [session.text(.localeRowShortDate), preview.date.short],
                [session.text(.localeRowTime), preview.time],
            ]
            if let roc = preview.date.roc { rows.append([session.text(.localeRowRoc), roc]) }
            rows += [
                [session.text(.localeRowLunar), preview.date.lunar],
                [session.text(.localeRowAmount(currency: preview.money.currency)),
                 preview.money.chosen + "   " + session.text(.localeAmountVariants(standard: preview.money.standard, accounting: preview.money.accounting))],
                [session.text(.localeRowNumber), preview.number + "   " + preview.percent],
                [session.text(.localeRowRelative), preview.relative.joined(separator: " · ")],
                [session.text(.localeRowPlurals),
                 preview.plurals.categories.joined(separator: ", ") + "   " + preview.plurals.examples.joined(separator: "  ")],
            ]
            for line in TextTable.render(rows) { session.print("  " + line.trimmingTrailingSpaces()) }
        }
    }
}

/// What `locale show` prints, also as JSON.
struct Preview: Encodable {
    struct Dates: Encodable {
        var medium: String
        var full: String
        var short: String
        var roc: String?
        var lunar: String
    }

    struct Money: Encodable {
        var currency: String
        var amount: String
        var chosen: String
        var standard: String
        var cash: String
        var accounting: String
    }

    struct Plurals: Encodable {
        var categories: [String]
        var examples: [String]
    }

    var locale: String
    var timeZone: String
    var date: Dates
    var time: String
    var money: Money
    var number: String
    var percent: String
    var relative: [String]
    var plurals: Plurals

    init(locale: LocaleID, zone: TimeZoneID, day: CivilDate, time: CivilDateTime, amount: Decimal, currency: String,
         rounding: CurrencyFormat.Rounding, symbol: CurrencyFormat.Symbol) throws {
        self.locale = locale.bcp47
        self.timeZone = zone.identifier
        let script = ChineseScript(locale: locale)
        let lunar = ChineseCalendar.lunarDate(for: day)
        date = Dates(
            medium: try DateFormat(skeleton: "yMMMEd", locale: locale, timeZone: zone).string(from: day),
            full: try DateFormat(dateStyle: .full, timeStyle: .none, locale: locale, timeZone: zone).string(from: day),
            short: try DateFormat(skeleton: "yMd", locale: locale, timeZone: zone).string(from: day),
            roc: locale.region == "TW" ? try ROCCalendar.written(day, locale: locale) : nil,
            lunar: lunar.written(script, includingYear: true))
        self.time = try DateFormat(skeleton: "jm", locale: locale, timeZone: zone).string(from: time)
        let chosen = try CurrencyFormat(currency: currency, locale: locale, rounding: rounding, symbol: symbol)
        money = Money(
            currency: chosen.currency,
            amount: amount.description,
            chosen: chosen.string(amount),
            standard: try CurrencyFormat(currency: currency, locale: locale, rounding: .standard, symbol: symbol).string(amount),
            cash: try CurrencyFormat(currency: currency, locale: locale, rounding: .cash, symbol: symbol).string(amount),
            accounting: try CurrencyFormat(currency: currency, locale: locale, rounding: rounding, negatives: .accounting,
                                           symbol: symbol).string(-amount))
        number = try NumberFormat.decimal(locale: locale).string(amount)
        percent = try NumberFormat.percent(locale: locale, fractionDigits: 1).string(Decimal(string: "0.256")!)
        let relativeFormat = try RelativeDayFormat(locale: locale)
        relative = [-1, 0, 1, 2, 3, -3].map { relativeFormat.string(days: $0) }
        let rules = try PluralRules(locale: locale)
        plurals = Plurals(categories: rules.categories.map(\.rawValue),
                          examples: [0, 1, 2, 5, 21].map { "\($0)→\(rules.category(for: $0).rawValue)" })
    }
}
