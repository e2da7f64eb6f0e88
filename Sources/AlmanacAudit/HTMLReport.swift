import AlmanacCore
import AlmanacStrings

extension AuditReporter {
    /// One self-contained page (no network assets): coverage bars per table and locale, findings
    /// filterable by check and locale, each with the value in every locale side by side.
    public static func html(_ report: AuditReport, language: Language, tables: [AuditTable]) -> String {
        func escape(_ text: String) -> String { XMLEscaping.escaped(text) }
        // A key or a path breaks after its dots, underscores and slashes when its column is narrow.
        func breakable(_ text: String) -> String {
            var result = ""
            for character in escape(text) {
                result.append(character)
                if character == "." || character == "_" || character == "/" { result += "<wbr>" }
            }
            return result
        }
        func t(_ message: Message) -> String { escape(message.rendered(in: language)) }
        let locales = Array(Set(report.coverage.map(\.locale))).sorted()
        var catalogs: [String: Catalog] = [:]
        for table in tables { catalogs[table.name] = table.catalog }

        var html = """
            <!DOCTYPE html>
            <html lang="\(language.rawValue)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(t(.auditHtmlTitle))</title>
            <style>
            body { font: 14px/1.5 -apple-system, "PingFang TC", "PingFang SC", "Noto Sans CJK TC", sans-serif; margin: 2em; color: #1d1d1f; }
            h1 { font-size: 1.6em; } h2 { font-size: 1.2em; margin-top: 2em; }
            table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: .35em .6em; border-bottom: 1px solid #e5e5ea; vertical-align: top; }
            .bar { background: #e5e5ea; border-radius: 4px; height: .8em; width: 12em; display: inline-block; vertical-align: middle; }
            .bar span { display: block; height: 100%; border-radius: 4px; background: #34c759; }
            .error { color: #d70015; font-weight: 600; } .warning { color: #b25000; font-weight: 600; } .note { color: #6e6e73; }
            .value { white-space: pre-wrap; } .muted { color: #6e6e73; } select { font: inherit; margin-right: 1em; }
            td, th { overflow-wrap: break-word; }
            #findings { table-layout: fixed; min-width: calc(42em + \(locales.count) * 9em); }
            #findings .problem { width: 24em; } #findings .table { width: 7.5em; } #findings .key { width: 12em; }
            .scroll { overflow-x: auto; }
            </style>
            </head>
            <body>
            <h1>\(t(.auditHtmlTitle))</h1>
            <p>\(t(.auditTotal(errors: String(report.count(.error)), warnings: String(report.count(.warning)), notes: String(report.count(.note)))))</p>
            <h2>\(t(.auditSummary))</h2>
            <table><tr><th>\(t(.auditColumnTable))</th><th>\(t(.auditColumnLocale))</th><th>\(t(.auditColumnCoverage))</th><th>\(t(.auditColumnErrors))</th><th>\(t(.auditColumnWarnings))</th></tr>

            """
        for row in report.coverage {
            let percent = String(format: "%.1f", row.percent)
            html += "<tr><td>\(escape(row.table))</td><td>\(escape(row.locale))</td>"
                + "<td><span class=\"bar\"><span style=\"width: \(percent)%\"></span></span> \(percent)%</td>"
                + "<td>\(row.errors)</td><td>\(row.warnings)</td></tr>\n"
        }
        html += "</table>\n<h2>\(t(.auditHtmlFindings))</h2>\n<p>"
        html += "<select id=\"check\"><option value=\"\">\(t(.auditHtmlAllChecks))</option>"
        for check in Array(Set(report.findings.map(\.check))).sorted() { html += "<option>\(escape(check.id))</option>" }
        html += "</select><select id=\"locale\"><option value=\"\">\(t(.auditHtmlAllLocales))</option>"
        for locale in locales { html += "<option>\(escape(locale))</option>" }
        // Long keys and values wrap inside their columns (a key of 80 letters without a space, a
        // paragraph), so the locale columns stay on screen; many locales scroll sideways, each
        // column at least 9em wide.
        html += "</select></p>\n<div class=\"scroll\"><table id=\"findings\"><colgroup><col class=\"problem\"><col class=\"table\"><col class=\"key\">"
        for _ in locales { html += "<col class=\"locale\">" }
        html += "</colgroup>\n<tr><th>\(t(.auditHtmlProblem))</th><th>\(t(.auditColumnTable))</th><th>Key</th>"
        for locale in locales { html += "<th>\(escape(locale))</th>" }
        html += "</tr>\n"
        for finding in sorted(report.findings) {
            let entry = catalogs[finding.table]?[finding.key]
            html += "<tr data-check=\"\(escape(finding.check.id))\" data-locale=\"\(escape(finding.locale ?? ""))\">"
            html += "<td><span class=\"\(finding.severity.rawValue)\">\(escape(finding.check.id))</span><br>\(escape(finding.message.rendered(in: language)))"
            if let file = finding.location?.file {
                html += "<br><span class=\"muted\">\(breakable(file))\(finding.location?.line.map { ":\($0)" } ?? "")</span>"
            }
            html += "</td><td>\(escape(finding.table))</td><td>\(breakable(finding.key))</td>"
            for locale in locales {
                let text = entry?.translations[locale]?.texts.first { $0.path == finding.variant }?.text
                    ?? entry?.translations[locale]?.texts.first?.text
                html += "<td class=\"value\">\(text.map(escape) ?? "<span class=\"muted\">—</span>")</td>"
            }
            html += "</tr>\n"
        }
        html += """
            </table></div>
            <script>
            function filter() {
              const check = document.getElementById("check").value, locale = document.getElementById("locale").value;
              for (const row of document.querySelectorAll("#findings tr[data-check]")) {
                row.style.display = (!check || row.dataset.check === check) && (!locale || row.dataset.locale === locale) ? "" : "none";
              }
            }
            document.getElementById("check").addEventListener("change", filter);
            document.getElementById("locale").addEventListener("change", filter);
            </script>
            </body>
            </html>

            """
        return html
    }
}
