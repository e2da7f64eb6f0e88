public import AlmanacCore

/// The codec's own messages in the languages Almanac speaks: a plugin brings them with its
/// description (`CodecPlugin.main(_:messages:)`), so `almanac` shows them in the user's language.
public enum TodoTxtMessages {
    public static let table = MessageTable(
        name: "todotxt",
        english: [
            "todotxt.not-utf8": "This line is not UTF-8 text. Save the list as UTF-8 and try again.",
            "todotxt.not-an-agenda": "todo.txt holds tasks; convert a calendar or a to-do list.",
            "todotxt.not-a-task": "“%@” is not a to-do; todo.txt holds tasks only, so it was left out.",
            "todotxt.bad-date": "“%@” is not a date as YYYY-MM-DD; it was kept in the text.",
        ],
        simplifiedChinese: [
            "todotxt.not-utf8": "这一行不是 UTF-8 文本。请将清单存为 UTF-8 后重试。",
            "todotxt.not-an-agenda": "todo.txt 只存放任务；请转换日历或待办清单。",
            "todotxt.not-a-task": "“%@”不是待办事项；todo.txt 只存放任务，因此未包含它。",
            "todotxt.bad-date": "“%@”不是 YYYY-MM-DD 格式的日期；已保留在文字中。",
        ],
        traditionalChinese: [
            "todotxt.not-utf8": "這一行不是 UTF-8 文字。請將清單存為 UTF-8 後再試一次。",
            "todotxt.not-an-agenda": "todo.txt 只存放工作；請轉換行事曆或待辦清單。",
            "todotxt.not-a-task": "「%@」不是待辦事項；todo.txt 只存放工作，因此未包含它。",
            "todotxt.bad-date": "「%@」不是 YYYY-MM-DD 格式的日期；已保留在文字中。",
        ])

    static func message(_ code: String, _ arguments: String...) -> Message { Message(code, arguments, table: table) }
}
