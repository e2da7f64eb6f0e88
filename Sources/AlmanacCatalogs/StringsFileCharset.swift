public import AlmanacCore
import AlmanacICU

extension StringsFile {
    /// The text of a file in whichever Unicode encoding it uses, or in the `declared` one. A file
    /// in a legacy charset (Big5, GB18030) is refused with the charset ICU recognises in it.
    public static func text(_ bytes: [UInt8], fileName: String?, declared: Charset?) throws(Diagnostic) -> (String, TextEncoding) {
        guard let declared else {
            do {
                return try text(bytes, fileName: fileName)
            } catch where error.code == .stringsNotUnicode {
                let detection = CharsetDetector.detect(bytes)
                throw Diagnostic.error(.stringsNotUnicode(charset: detection.charset.description), at: SourceLocation(file: fileName))
            }
        }
        guard let form = declared.unicodeForm else {
            throw Diagnostic.error(.stringsNotUnicode(charset: declared.description), at: SourceLocation(file: fileName))
        }
        let encoding: TextEncoding
        do { encoding = try TextEncoding(form, byteOrderMark: bytes.starts(with: form.byteOrderMark)) } catch { throw error.inFile(fileName) }
        return (try decode(bytes, encoding: encoding, fileName: fileName), encoding)
    }
}
