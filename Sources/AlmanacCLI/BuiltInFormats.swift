public import AlmanacCore
import AlmanacICalendar

/// The formats Almanac ships, as one explicit list (a user's tool adds its own after these).
public enum BuiltInFormats {
    public static var codecs: [any Codec] {
        [ICalendarCodec(), XCalCodec(), JCalCodec()] + ModelJSONCodec.all
    }

    public static var registry: FormatRegistry { FormatRegistry(codecs) }
}
