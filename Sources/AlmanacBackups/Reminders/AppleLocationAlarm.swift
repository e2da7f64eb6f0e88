import AlmanacCore
import AlmanacICU

/// A reminder's place as Apple's Calendar and Reminders write it in iCalendar: a location alarm
/// (`X-APPLE-PROXIMITY:ARRIVE` or `DEPART`, and the place as
/// `X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-TITLE=…;X-APPLE-RADIUS=100:geo:25.0339,121.5645`),
/// whose trigger is Apple's placeholder date, 1976-04-01T00:55:45Z, not a time. RFC 9074's
/// `PROXIMITY` property is read as well.
struct AppleLocationAlarm: Hashable {
    var title: String?
    var latitude: Double?
    var longitude: Double?
    var radius: String?
    /// `arriving` or `leaving`, as the Reminders backup says it.
    var proximity: String

    static let structuredLocation = "X-APPLE-STRUCTURED-LOCATION"
    static let appleProximity = "X-APPLE-PROXIMITY"
    static let placeholderTrigger = DateValue.utc(CivilDateTime(unchecked: CivilDate(unchecked: 1976, 4, 1), 0, 55, 45))

    /// The location alarm among an item's alarms, if it has one.
    init?(_ alarm: Alarm) {
        guard let word = alarm.carried.first(where: { $0.name == Self.appleProximity || $0.name == "PROXIMITY" })?.value.uppercased() else {
            return nil
        }
        switch word {
        case "ARRIVE": proximity = "arriving"
        case "DEPART": proximity = "leaving"
        default: return nil  // CONNECT/DISCONNECT (a car's Bluetooth) name no place
        }
        if let place = alarm.carried.first(where: { $0.name == Self.structuredLocation }) {
            title = place.parameters.first { $0.name == "X-TITLE" }?.values.first
            radius = place.parameters.first { $0.name == "X-APPLE-RADIUS" }?.values.first
            (latitude, longitude) = Self.coordinates(place.value)
        }
    }

    init(title: String?, latitude: Double?, longitude: Double?, proximity: String) {
        self.title = title
        self.latitude = latitude
        self.longitude = longitude
        self.proximity = proximity
    }

    /// The alarm Apple writes for it.
    func alarm(message: String) -> Alarm {
        var carried = [CarriedProperty(name: Self.appleProximity, value: proximity == "leaving" ? "DEPART" : "ARRIVE")]
        if let latitude, let longitude {
            var parameters = [CarriedProperty.Parameter(name: "VALUE", values: ["URI"])]
            if let title { parameters.append(.init(name: "X-TITLE", values: [title])) }
            parameters.append(.init(name: "X-APPLE-RADIUS", values: [radius ?? "100"]))
            carried.append(CarriedProperty(name: Self.structuredLocation, parameters: parameters,
                                           value: "geo:\(Self.text(latitude)),\(Self.text(longitude))"))
        }
        return Alarm(trigger: .absolute(Self.placeholderTrigger), action: .display, message: message, carried: carried)
    }

    /// `geo:25.0339,121.5645` (RFC 5870, with an optional `;u=` or `?` tail).
    static func coordinates(_ uri: String) -> (Double?, Double?) {
        guard uri.lowercased().hasPrefix("geo:") else { return (nil, nil) }
        let body = uri.dropFirst(4).prefix { $0 != ";" && $0 != "?" }
        let parts = body.split(separator: ",")
        guard parts.count >= 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
              (-90...90).contains(latitude), (-180...180).contains(longitude) else { return (nil, nil) }
        return (latitude, longitude)
    }

    /// A coordinate as written in a backup: no exponent, no trailing zeros.
    static func text(_ value: Double) -> String {
        var text = "\(value)"
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}
