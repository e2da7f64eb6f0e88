public import AlmanacICU

extension Language {
    /// The locale for formatting in this language when the user gave none.
    public var locale: LocaleID {
        switch self {
        case .english: .americanEnglish
        case .simplifiedChinese: .mainlandChina
        case .traditionalChinese: .taiwan
        }
    }
}
