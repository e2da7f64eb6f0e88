public import AlmanacCore
import AlmanacCatalogs
import Foundation

/// `almanac audit --fix`: the findings with one right answer, fixed in the files they are in.
///
/// The audit runs on the tables in memory; each finding of a fixable check has its text changed
/// (``TextFixes``), or, for a key zh-Hant lacks, a draft made from the zh-Hans text and marked for
/// review; then the audit runs again, until no fixable finding is left (a fix can reveal another:
/// the vocabulary check waits until a text has no Simplified characters). Notes, and findings with
/// more than one right answer, are never touched. A baseline's accepted findings stay as they are.
///
/// Each changed text is then written to the file it was read from: the file is read again and
/// decoded keeping its layout, the texts are replaced in that catalog, and it is encoded as it was
/// read, so only the fixed values' bytes change. A file Almanac cannot write back byte for byte
/// unchanged is left alone (and said), and so is a compiled `.strings` table unless asked.
public struct AuditFixer {
    public struct Options: Sendable {
        /// The checks whose findings are fixed: those applied without being named, unless a list
        /// names others (``AuditFixer/suggestedOnly``).
        public var checks: Set<AuditCheck> = Set(AuditFixer.automaticChecks)
        /// Rewrite a compiled (binary) `.strings` table, as a compiled table.
        public var rewriteCompiled = false

        public init() {}
    }

    /// The checks that have fixes, in the order a text's fixes are applied: the text fixes, then
    /// a missing Taiwan translation drafted from the Simplified one.
    public static let checks: [AuditCheck] = TextFixes.rules.map { $0.check } + [MissingKeyRule.check]

    /// The fixes `--fix` applies only where a list names their check (`--fix=halfwidth-punctuation`):
    /// each made a wrong edit on the last set of apps nobody had tuned on, and until a later such
    /// set shows its class fixed, the report offers its text as a suggestion (``Finding/suggestion``)
    /// for a person to take or leave. The measurements are in `Scripts/corpus/README.md`: fresh-16,
    /// measured after fresh-15's classes were fixed, had halfwidth-punctuation (a ? naming a button)
    /// and traditional-in-hans (關於 made 关於) wrong, and whitespace-mismatch right again. A
    /// drafted translation (missing-key) is written marked for review: a suggestion already.
    public static let suggestedOnly: Set<AuditCheck> = [HalfwidthPunctuationRule.check, TraditionalInHansRule.check]

    /// The fixes `--fix` applies when no list names checks.
    public static var automaticChecks: [AuditCheck] { checks.filter { !suggestedOnly.contains($0) } }

    /// The report with each finding of a suggested-only fix given the text its fix would make.
    public static func suggesting(_ report: AuditReport, auditor: Auditor) -> AuditReport {
        guard report.findings.contains(where: { suggestedOnly.contains($0.check) }) else { return report }
        let texts = TextFixes(vocabulary: auditor.vocabulary)
        var report = report
        for index in report.findings.indices {
            let finding = report.findings[index]
            guard suggestedOnly.contains(finding.check), let locale = finding.locale, let text = finding.value,
                  let rule = TextFixes.byCheck[finding.check] else { continue }
            report.findings[index].suggestion = texts.fix(rule, text: text, base: finding.base, traditional: auditor.locale(locale).isTraditional)
        }
        return report
    }

    /// The comment a drafted `.strings` entry gets, which a reviewer searches for.
    public static func draftComment(from locale: String) -> String {
        "Needs review: drafted by almanac audit --fix from the \(locale) text."
    }

    /// One finding fixed: which text, and what it was and is.
    public struct Fix: Hashable, Sendable, Codable {
        public var check: AuditCheck
        public var table: String
        public var key: String
        public var locale: String
        /// The text's place in the value (`plural.one`), empty for the value.
        public var variant: String
        /// The text before; nil for a drafted translation.
        public var before: String?
        public var after: String
        /// The file changed.
        public var file: String?
        /// For a draft, the catalog's own choices it follows (`帳戶 → 帳號`), where any changed it.
        public var learned: [String]?
    }

    /// A file with its fixes applied: its bytes as read and as they would be written.
    public struct FileChange: Sendable {
        public var path: String
        public var original: [UInt8]
        public var fixed: [UInt8]
        public var fixes: [Fix]
    }

    /// What fixing would change.
    public struct Plan: Sendable {
        /// The files to write, in the order of the tables.
        public var changes: [FileChange]
        /// Files with fixes that are not written, and why.
        public var diagnostics: [Diagnostic]
        /// The tables as they are once the changes are written: their audit is what is left.
        public var tables: [AuditTable]
        /// The fixes the files take.
        public var fixes: [Fix] { changes.flatMap(\.fixes) }
    }

    let auditor: Auditor
    let registry: FormatRegistry
    let options: Options
    let baseline: Baseline?
    let texts: TextFixes

    public init(auditor: Auditor, registry: FormatRegistry = AuditTable.catalogFormats, options: Options = Options(), baseline: Baseline? = nil) {
        self.auditor = auditor
        self.registry = registry
        self.options = options
        self.baseline = baseline
        texts = TextFixes(vocabulary: auditor.vocabulary)
    }

    /// What fixing `tables` (as `AuditTable.load` reads them) changes in their files.
    public func plan(_ tables: [AuditTable]) -> Plan {
        // The fixer reads and changes whole catalogs, many times: a table held as a store is made
        // a catalog once, here, not once per look.
        let tables = tables.map { $0.holdingCatalog() }
        var diagnostics: [Diagnostic] = []
        var edits: [String: [FileEdit]] = [:]
        var order: [String] = []
        var fixedTables = tables
        var tableEdits: [[FileEdit]] = Array(repeating: [], count: tables.count)
        let elsewhere = Self.simplifiedTexts(in: tables)
        for (position, table) in tables.enumerated() {
            let (fixed, fixes) = fixInMemory(table, elsewhere: elsewhere)
            guard !fixes.isEmpty else { continue }
            fixedTables[position] = fixed
            tableEdits[position] = fileEdits(original: table, fixed: fixed, fixes: fixes, diagnostics: &diagnostics)
            for edit in tableEdits[position] {
                if edits[edit.file] == nil { order.append(edit.file) }
                edits[edit.file, default: []].append(edit)
            }
        }
        var changes: [FileChange] = []
        var planned: Set<String> = []
        for file in order.sorted() {
            do throws(Diagnostic) {
                if let change = try change(file, edits[file] ?? []) { changes.append(change) }
                planned.insert(file)
            } catch {
                diagnostics.append(error)
            }
        }
        // The tables as the planned files make them (a text whose file is not changed, or that went
        // to no file, is as it was): what is left is their audit.
        var result = tables
        for position in tables.indices where !tableEdits[position].isEmpty {
            var index: [String: Int] = [:]
            for (place, entry) in result[position].catalog.entries.enumerated() where index[entry.key] == nil { index[entry.key] = place }
            for edit in tableEdits[position] where planned.contains(edit.file) {
                guard let place = index[edit.key] else { continue }
                if edit.drafted != nil {
                    result[position].catalog.entries[place].translations[edit.locale] = fixedTables[position].catalog.entries[place].translations[edit.locale]
                } else {
                    result[position].catalog.entries[place].translations[edit.locale]?.setText(edit.after, at: edit.variant)
                }
            }
        }
        return Plan(changes: changes, diagnostics: diagnostics, tables: result)
    }

    /// Writes each change in place, atomically; a file whose bytes are no longer those the plan
    /// read is not written. Returns the paths written and what went wrong.
    public static func write(_ changes: [FileChange]) -> (written: [String], diagnostics: [Diagnostic]) {
        var written: [String] = []
        var diagnostics: [Diagnostic] = []
        for change in changes {
            // The file a link names is the one changed; the link stays.
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: change.path)).map { link in
                link.hasPrefix("/") ? link : OutputNames.parent(of: change.path) + "/" + link
            } ?? change.path
            guard let now = FileManager.default.contents(atPath: target).map(Array.init), now == change.original else {
                diagnostics.append(.error(.auditFixChanged(count: String(change.fixes.count)), at: SourceLocation(file: change.path)))
                continue
            }
            do throws(Diagnostic) {
                try OutputFile.write(change.fixed, to: target, options: .init(overwrite: true))
                written.append(change.path)
            } catch {
                diagnostics.append(error)
            }
        }
        return (written, diagnostics)
    }

    // MARK: - In memory

    /// Simplified Chinese texts of XLIFF files, by the file their strings come from (`original`)
    /// and key: Xcode exports one XLIFF per language, so a zh-Hant file's draft comes from the
    /// zh-Hans file beside it.
    static func simplifiedTexts(in tables: [AuditTable]) -> [String: (locale: String, translation: Translation)] {
        var result: [String: (locale: String, translation: Translation)] = [:]
        for table in tables where table.catalog.presentation[TableSource.self]?.original != nil {
            for locale in table.catalog.locales where AuditLocale(locale).isSimplified {
                for entry in table.catalog.entries {
                    guard let translation = entry.translations[locale], let original = Self.original(of: entry, in: table.catalog) else { continue }
                    result[original + "\u{1F}" + entry.key] = result[original + "\u{1F}" + entry.key] ?? (locale, translation)
                }
            }
        }
        return result
    }

    /// The locale a drafted translation was drafted from, kept on it until its edit is written.
    struct DraftedFrom: PresentationLayout {
        var locale: String
    }

    static func original(of entry: CatalogEntry, in catalog: Catalog) -> String? {
        entry.presentation[TableSource.self]?.original ?? catalog.presentation[TableSource.self]?.original
    }

    /// The table with its fixable findings fixed, pass after pass, and the fixes.
    func fixInMemory(_ original: AuditTable, elsewhere: [String: (locale: String, translation: Translation)] = [:]) -> (AuditTable, [Fix]) {
        var table = original
        var fixes: [Fix] = []
        var index: [String: Int] = [:]
        for (position, entry) in table.catalog.entries.enumerated() where index[entry.key] == nil { index[entry.key] = position }
        let rank = Dictionary(uniqueKeysWithValues: Self.checks.enumerated().map { ($1, $0) })
        var drafter: ChineseConverter??
        // What the table's own Taiwan translations show, by Simplified and Taiwan locale, learned
        // when the first draft there is made.
        var memories: [String: DraftMemory] = [:]
        // The first pass audits the table; each next one only the entries the last one changed.
        var changedKeys: Set<String>?
        defer { auditor.keysToCheck = nil }
        for _ in 0..<8 {
            auditor.keysToCheck = changedKeys
            var report = auditor.audit([table])
            if let baseline { report = baseline.apply(to: report) }
            changedKeys = []
            let fixable = report.findings.filter { options.checks.contains($0.check) && $0.severity != .note && $0.locale != nil }
                .sorted { (rank[$0.check] ?? 0) < (rank[$1.check] ?? 0) }
            var changed = false
            for finding in fixable {
                guard let locale = finding.locale, let position = index[finding.key] else { continue }
                if finding.check == MissingKeyRule.check {
                    if drafter == nil { drafter = .some(try? ChineseConverter(.toTaiwan, keepingSharedWords: true)) }
                    let outside = Self.original(of: table.catalog.entries[position], in: table.catalog).flatMap { elsewhere[$0 + "\u{1F}" + finding.key] }
                    guard let converter = drafter ?? nil, let fix = draft(&table.catalog.entries[position], locale: locale, converter: converter,
                                                                       table: table.name, elsewhere: outside, memory: { source in
                        let id = source + "\u{1F}" + locale
                        if let known = memories[id] { return known }
                        let learned = DraftMemory(learningFrom: original.catalog, source: source, target: locale, converter: converter)
                        memories[id] = learned
                        return learned
                    }) else { continue }
                    fixes.append(fix)
                    changedKeys?.insert(finding.key)
                    changed = true
                    continue
                }
                guard var translation = table.catalog.entries[position].translations[locale],
                      let current = translation.text(at: finding.variant) else { continue }
                let traditional = auditor.locale(locale).isTraditional
                guard let rule = TextFixes.byCheck[finding.check],
                      let new = texts.fix(rule, text: current, base: finding.base, traditional: traditional) else { continue }
                translation.setText(new, at: finding.variant)
                table.catalog.entries[position].translations[locale] = translation
                fixes.append(Fix(check: finding.check, table: table.name, key: finding.key, locale: locale, variant: finding.variant,
                                 before: current, after: new))
                changedKeys?.insert(finding.key)
                changed = true
            }
            if !changed { break }
        }
        return (table, fixes)
    }

    /// A missing Taiwan Chinese translation drafted from the Simplified one, marked for review.
    /// `memory` gives what the table's Taiwan translations show for drafts from a Simplified locale.
    private func draft(_ entry: inout CatalogEntry, locale: String, converter: ChineseConverter, table: String,
                       elsewhere: (locale: String, translation: Translation)? = nil, memory: (String) -> DraftMemory = { _ in .none }) -> Fix? {
        let own = entry.translations.keys.sorted().first(where: { auditor.locale($0).isSimplified })
        guard entry.translations[locale] == nil, auditor.locale(locale).isTaiwan,
              let source = own ?? elsewhere?.locale,
              let translation = own.flatMap({ entry.translations[$0] }) ?? elsewhere?.translation, !translation.isEmpty,
              // A Simplified text that is still the base's (untranslated there too) drafts nothing.
              translation.texts.contains(where: { $0.text.contains(where: TextScan.isCJK) }) else { return nil }
        var (drafted, used) = memory(source).apply(to: converter.convert(translation), source: translation)
        drafted.state = .needsReview
        drafted.textStates = nil
        drafted.presentation[DraftedFrom.self] = DraftedFrom(locale: source)
        entry.translations[locale] = drafted
        return Fix(check: MissingKeyRule.check, table: table, key: entry.key, locale: locale, variant: "", before: nil,
                   after: drafted.texts.map(\.text).joined(separator: " | "),
                   learned: used.isEmpty ? nil : used.sorted().map(\.summary))
    }

    // MARK: - In the files

    /// One text to change in one file, and the fixes that made it.
    struct FileEdit {
        var file: String
        var key: String
        var locale: String
        var variant: String
        var before: String?
        var after: String
        var fixes: [Fix]
        /// For a drafted translation: the whole translation, and the locale it was drafted from.
        var drafted: Translation?
        var draftedFrom: String?
    }

    /// Where each change of the table goes: a text to the file its translation was read from, a
    /// drafted translation to the locale's file of the table (the String Catalog, or the `.lproj`
    /// file of the same name as the Simplified text's).
    func fileEdits(original: AuditTable, fixed: AuditTable, fixes: [Fix], diagnostics: inout [Diagnostic]) -> [FileEdit] {
        var result: [FileEdit] = []
        var index: [String: Int] = [:]
        for (position, entry) in original.catalog.entries.enumerated() where index[entry.key] == nil { index[entry.key] = position }
        // The fixes of each text, in the order they were made: the edit takes the first text and the last.
        var steps: [String: [Fix]] = [:]
        var order: [String] = []
        // Drafts with no file of their locale to go to: one warning per file that is not there.
        var missingFiles: [String: (locale: String, count: Int)] = [:]
        var missingOrder: [String] = []
        defer {
            for path in missingOrder {
                guard let missing = missingFiles[path] else { continue }
                diagnostics.append(.warning(.auditFixNoFile(count: String(missing.count), table: original.name, locale: missing.locale, path: path)))
            }
        }
        for fix in fixes {
            let id = [fix.key, fix.locale, fix.variant].joined(separator: "\u{1F}")
            if steps[id] == nil { order.append(id) }
            steps[id, default: []].append(fix)
        }
        for id in order {
            guard let made = steps[id], let fix = made.last, let position = index[fix.key],
                  let after = fixed.catalog.entries[position].translations[fix.locale] else { continue }
            if let before = original.catalog.entries[position].translations[fix.locale] {
                guard let file = before.presentation.origin?.file, let old = before.text(at: fix.variant),
                      let new = after.text(at: fix.variant), old != new else { continue }
                result.append(FileEdit(file: file, key: fix.key, locale: fix.locale, variant: fix.variant, before: old, after: new, fixes: made))
            } else {
                let source = after.presentation[DraftedFrom.self]?.locale ?? ""
                // The Simplified text's file, or for a draft from another XLIFF file, this table's own file.
                guard let sourceFile = original.catalog.entries[position].translations[source]?.presentation.origin?.file
                    ?? (original.files.count == 1 ? original.files[0] : nil) else { continue }
                guard let file = Self.localeFile(like: sourceFile, locale: fix.locale, in: original.files) else {
                    let wanted = OutputNames.parent(of: OutputNames.parent(of: sourceFile)) + "/" + fix.locale + ".lproj/" + OutputNames.baseName(sourceFile)
                    if missingFiles[wanted] == nil { missingOrder.append(wanted) }
                    missingFiles[wanted, default: (fix.locale, 0)].count += 1
                    continue
                }
                result.append(FileEdit(file: file, key: fix.key, locale: fix.locale, variant: "", before: nil, after: fix.after, fixes: made,
                                       drafted: after, draftedFrom: source))
            }
        }
        return result
    }

    /// The file of `locale` holding what `file` holds for its locale: the file itself when it
    /// holds every locale (a String Catalog, XLIFF), else the same name in the locale's `.lproj`.
    static func localeFile(like file: String, locale: String, in files: [String]) -> String? {
        let folder = OutputNames.parent(of: file)
        guard OutputNames.baseName(folder).hasSuffix(".lproj") else { return file }
        let name = OutputNames.baseName(file).lowercased()
        return files.first { candidate in
            let candidateFolder = OutputNames.parent(of: candidate)
            return OutputNames.baseName(candidateFolder) == locale + ".lproj" && OutputNames.baseName(candidate).lowercased() == name
                && OutputNames.parent(of: candidateFolder) == OutputNames.parent(of: folder)
        }
    }

    /// The file with `edits` applied, as it would be written; nil when nothing changes.
    func change(_ file: String, _ edits: [FileEdit]) throws(Diagnostic) -> FileChange? {
        let location = SourceLocation(file: file)
        guard let bytes = FileManager.default.contents(atPath: file).map(Array.init) else { throw .error(.inputNotFound, at: location) }
        let codec = try registry.open(.file(file), codec: nil).codec
        // XLIFF is changed in its bytes, with no catalog to decode first.
        if codec.format.id == "xliff" { return try patchXLIFF(file, bytes: bytes, codec: codec, edits: edits) }
        let input = CodecInput(bytes: bytes, fileName: file)
        let decoded = try codec.decode(input, context: CodecContext())
        guard case .catalog(var catalog) = decoded.document else { throw .error(.auditFixNotExact(count: String(edits.count)), at: location) }
        // A String Catalog is changed in its bytes too, where it is laid out over lines (writing an
        // entry again would order its localizations as Xcode does).
        if codec.format.id == "xcstrings", let written = XCStringsPatch.apply(edits.map(Self.catalogEdit), to: bytes, catalog: catalog) {
            return try checked(written, original: bytes, file: file, codec: codec, edits: edits)
        }
        var context = CodecContext()
        if decoded.encoding == StringsCodec.binaryDescription {
            guard options.rewriteCompiled else { throw .error(.auditFixCompiled(count: String(edits.count)), at: location) }
            context = CodecContext(options: ["encoding": StringsCodec.binary])
        } else {
            // Only a file that comes back byte for byte is changed: then nothing but the fixed texts differs.
            guard (try? codec.encode(decoded.document, context: context).bytes) == bytes else {
                throw .error(.auditFixNotExact(count: String(edits.count)), at: location)
            }
        }
        var index: [String: Int] = [:]
        for (position, entry) in catalog.entries.enumerated() where index[entry.key] == nil { index[entry.key] = position }
        for edit in edits {
            if let drafted = edit.drafted {
                var translation = drafted
                translation.presentation = Presentation()
                if let position = index[edit.key] {
                    guard catalog.entries[position].translations[edit.locale] == nil else { throw .error(.auditFixChanged(count: String(edits.count)), at: location) }
                    catalog.entries[position].translations[edit.locale] = translation
                } else {
                    // A `.lproj` file of one locale: a new entry at its end, with the comment a reviewer looks for.
                    index[edit.key] = catalog.entries.count
                    catalog.entries.append(CatalogEntry(key: edit.key, comment: Self.draftComment(from: edit.draftedFrom ?? "zh-Hans"),
                                                        translations: [edit.locale: translation]))
                }
                continue
            }
            guard let position = index[edit.key], var translation = catalog.entries[position].translations[edit.locale],
                  translation.text(at: edit.variant) == edit.before else {
                throw .error(.auditFixChanged(count: String(edits.count)), at: location)
            }
            translation.setText(edit.after, at: edit.variant)
            catalog.entries[position].translations[edit.locale] = translation
        }
        let written = try codec.encode(.catalog(catalog), context: context).bytes
        return try checked(written, original: bytes, file: file, codec: codec, edits: edits)
    }

    static func catalogEdit(_ edit: FileEdit) -> XCStringsPatch.Edit {
        guard var translation = edit.drafted else {
            return XCStringsPatch.Edit(key: edit.key, locale: edit.locale, path: edit.variant, text: edit.after)
        }
        translation.presentation = Presentation()
        return XCStringsPatch.Edit(key: edit.key, locale: edit.locale, adding: translation)
    }

    /// XLIFF is changed in its bytes (`XLIFFPatch`): libxml2 would not write the rest back as it was.
    private func patchXLIFF(_ file: String, bytes: [UInt8], codec: any Codec, edits: [FileEdit]) throws(Diagnostic) -> FileChange? {
        var patches: [XLIFFPatch.Edit] = []
        for edit in edits {
            if let drafted = edit.drafted {
                for (path, text) in drafted.texts {
                    patches.append(XLIFFPatch.Edit(key: edit.key, path: path, locale: edit.locale, text: text, state: .needsReview))
                }
            } else {
                patches.append(XLIFFPatch.Edit(key: edit.key, path: edit.variant, locale: edit.locale, text: edit.after))
            }
        }
        guard let written = XLIFFPatch.apply(patches, to: bytes) else {
            throw .error(.auditFixNotExact(count: String(edits.count)), at: SourceLocation(file: file))
        }
        return try checked(written, original: bytes, file: file, codec: codec, edits: edits)
    }

    /// The change, once what is written reads back with the fixed texts.
    private func checked(_ written: [UInt8], original bytes: [UInt8], file: String, codec: any Codec, edits: [FileEdit]) throws(Diagnostic) -> FileChange? {
        guard case .catalog(let reread) = try codec.decode(CodecInput(bytes: written, fileName: file), context: CodecContext()).document
        else { throw .error(.auditFixNotExact(count: String(edits.count)), at: SourceLocation(file: file)) }
        var index: [String: Int] = [:]
        index.reserveCapacity(reread.entries.count)
        for (position, entry) in reread.entries.enumerated() where index[entry.key] == nil { index[entry.key] = position }
        guard edits.allSatisfy({ edit in
                  guard let position = index[edit.key], let translation = reread.entries[position].translations[edit.locale] else { return false }
                  if let drafted = edit.drafted {
                      // A format that holds a state marks the draft for review (a `.strings` file has its comment).
                      let marked = translation.state == .needsReview || !["xcstrings", "xliff"].contains(codec.format.id)
                      return marked && drafted.texts.allSatisfy { translation.text(at: $0.path) == $0.text }
                  }
                  return translation.text(at: edit.variant) == edit.after
              })
        else { throw .error(.auditFixNotExact(count: String(edits.count)), at: SourceLocation(file: file)) }
        guard written != bytes else { return nil }
        let fixes = edits.flatMap(\.fixes).map { fix in
            var located = fix
            located.file = file
            return located
        }
        return FileChange(path: file, original: bytes, fixed: written, fixes: fixes)
    }
}
