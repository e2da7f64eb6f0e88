import ArgumentParser
import AlmanacCore

struct Formats: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "formats", abstract: L(.cliFormatsAbstract))
    }

    @Flag(help: ArgumentHelp(L(.cliOptionJson))) var json = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = Session.current!
        let formats = session.registry.codecs.map(\.format)
        if json {
            session.write(try CanonicalJSON.encode(formats))
            return
        }
        let yes = session.text(.wordYes)
        let no = session.text(.wordNo)
        let rows = session.registry.codecs.map { codec in
            let format = codec.format
            let plugin = (codec as? ExternalCodec).map { " [" + session.text(.formatsPlugin) + " " + $0.executable + "]" } ?? ""
            return [format.id, format.model.rawValue, format.canRead ? yes : no, format.canWrite ? yes : no,
                    format.extensions.joined(separator: " "), format.name + plugin]
        }
        let header = [Message.formatsColumnId, .formatsColumnModel, .formatsColumnRead, .formatsColumnWrite,
                      .formatsColumnExtensions, .formatsColumnName].map { session.text($0) }
        for line in TextTable.render([header] + rows) { session.print(line) }
        for problem in session.pluginProblems { session.report(problem) }
    }
}

/// Left-aligned columns, padded by display width (CJK characters count as two columns).
enum TextTable {
    static func render(_ rows: [[String]], gap: Int = 2) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], displayWidth(cell)) }
        }
        return rows.map { row in
            var line = ""
            for (index, cell) in row.enumerated() {
                line += cell
                if index < row.count - 1 {
                    line += String(repeating: " ", count: widths[index] - displayWidth(cell) + gap)
                }
            }
            return line
        }
    }

    /// Terminal columns a string takes: East Asian wide and full-width characters take two.
    static func displayWidth(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { width, scalar in
            switch scalar.value {
            case 0x0300...0x036F, 0x200B...0x200F, 0xFE00...0xFE0F: width
            case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
                 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
                 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD: width + 2
            default: width + 1
            }
        }
    }
}
