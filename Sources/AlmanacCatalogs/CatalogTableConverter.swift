public import AlmanacCore
import AlmanacICU

/// Catalogs as translators' spreadsheets: a row per string (or per variant), columns `key`,
/// `variant` (empty, `plural.one`, `device.mac`, `substitution.days.other`), `comment`, then one
/// column per locale (`en`, `zh-Hans`, `zh-Hant`). Through the CSV codec this is
/// `almanac convert Localizable.xcstrings --to csv` and back.
public struct CatalogTableConverter: DocumentConverter {
    public init() {}

    public var conversions: [(from: ModelKind, to: ModelKind)] { [(.catalog, .table), (.table, .catalog)] }

    public var options: [FormatDescription.Option] {
        [.init(name: "source-language", summary: "The language the keys are written in (default: the first locale column).")]
    }

    public func convert(_ document: Document, to model: ModelKind, context: CodecContext) throws(Diagnostic) -> (Document, [Diagnostic]) {
        switch (document, model) {
        case (.catalog(let catalog), .table): return (.table(Self.table(catalog)), [])
        case (.table(let table), .catalog): return try Self.catalog(table, context: context)
        default: throw Diagnostic.error(.convertModelMismatch(model: document.kind.rawValue, format: model.rawValue, expected: model.rawValue))
        }
    }

    static func table(_ read: Catalog) -> Table {
        // A String Catalog's keys without source-language text are that text: the sheet's source column says it.
        let catalog = read.withSourceText()
        let locales = [catalog.sourceLanguage] + catalog.locales.filter { $0 != catalog.sourceLanguage }
        var table = Table(columns: ["key", "variant", "comment"] + locales)
        for entry in catalog.entries {
            let paths = entry.translations.values.flatMap { $0.texts.map(\.path) }
            var seen = Set<String>()
            for path in XLIFFCodec.ordered(Set(paths)) where seen.insert(path).inserted {
                var row = [entry.key, path, entry.comment ?? ""]
                for locale in locales {
                    row.append(entry.translations[locale]?.texts.first { $0.path == path }?.text ?? "")
                }
                table.rows.append(row)
            }
            if paths.isEmpty { table.rows.append([entry.key, "", entry.comment ?? ""] + locales.map { _ in "" }) }
        }
        return table
    }

    static let keyHeaders: Set<String> = ["key", "id", "string id", "鍵", "键", "識別碼", "标识"]
    static let commentHeaders: Set<String> = ["comment", "note", "notes", "context", "註解", "注释", "備註", "备注", "說明", "说明"]
    static let variantHeaders: Set<String> = ["variant", "form", "變體", "变体"]

    static func catalog(_ table: Table, context: CodecContext) throws(Diagnostic) -> (Document, [Diagnostic]) {
        let file = context.sourceFile
        let headers = table.columns.map { $0.trimmingCharacters(in: .whitespaces) }
        guard let keyColumn = headers.firstIndex(where: { keyHeaders.contains($0.lowercased()) }) else {
            throw Diagnostic.error(.catalogNoKeyColumn(columns: headers.joined(separator: ", ")), at: SourceLocation(file: file, line: 1))
        }
        let commentColumn = headers.firstIndex { commentHeaders.contains($0.lowercased()) }
        let variantColumn = headers.firstIndex { variantHeaders.contains($0.lowercased()) }
        var localeColumns: [(Int, String)] = []
        var diagnostics: [Diagnostic] = []
        for (index, header) in headers.enumerated() where index != keyColumn && index != commentColumn && index != variantColumn {
            if Self.looksLikeLocale(header), let locale = try? LocaleID(header) {
                localeColumns.append((index, CatalogLocales.catalogName(locale.bcp47, among: ["en", "zh-Hans", "zh-Hant"])))
            } else {
                diagnostics.append(.note(.csvExtraColumns(columns: header), at: SourceLocation(file: file, line: 1)))
            }
        }
        guard !localeColumns.isEmpty else {
            throw Diagnostic.error(.catalogNoLocaleColumns(columns: headers.joined(separator: ", ")), at: SourceLocation(file: file, line: 1))
        }
        var catalog = Catalog(sourceLanguage: context.options["source-language"] ?? localeColumns[0].1)
        var index: [String: Int] = [:]
        for (rowIndex, row) in table.rows.enumerated() {
            func cell(_ column: Int?) -> String? {
                guard let column, column < row.count else { return nil }
                return row[column]
            }
            guard let key = cell(keyColumn), !key.isEmpty else { continue }
            let location = SourceLocation(file: file, line: rowIndex + 2, keyPath: key)
            let path = (cell(variantColumn) ?? "").split(separator: ".").map(String.init)
            let position = index[key] ?? {
                catalog.entries.append(CatalogEntry(key: key))
                index[key] = catalog.entries.count - 1
                return catalog.entries.count - 1
            }()
            if let comment = cell(commentColumn), !comment.isEmpty, catalog.entries[position].comment == nil {
                catalog.entries[position].comment = comment
            }
            for (column, locale) in localeColumns {
                guard let text = cell(column), !text.isEmpty else { continue }
                var translation = catalog.entries[position].translations[locale] ?? Translation()
                try XLIFFCodec.set(text, at: Self.xliffPath(path), in: &translation, location: location)
                translation.presentation.origin = translation.presentation.origin ?? location
                catalog.entries[position].translations[locale] = translation
            }
        }
        return (.catalog(catalog), diagnostics)
    }

    /// `en`, `zh-Hans`, `zh_TW`, `pt-BR`: a language of two or three letters, then script or region.
    static func looksLikeLocale(_ text: String) -> Bool {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLetter }),
              language == language.lowercased(), parts.count <= 3 else { return false }
        return parts.dropFirst().allSatisfy { part in
            (part.count == 4 && part.allSatisfy { $0.isASCII && $0.isLetter }) || (part.count == 2 && part.allSatisfy { $0.isASCII && $0.isLetter })
                || (part.count == 3 && part.allSatisfy(\.isNumber))
        }
    }

    /// `substitution.days.one` as XLIFF addresses it.
    static func xliffPath(_ path: [String]) -> [String] {
        XLIFFCodec.xliffPath(path.joined(separator: ".")).split(separator: ".").map(String.init)
    }
}
