@testable import AlmanacCalendar
import Foundation
import AlmanacCore
import AlmanacICU
import Testing

/// The examples of RFC 5545 §3.8.5.3 and RFC 7529 §4, with their published instance lists
/// (wall times in the example's zone; UNTIL values converted to New York time by hand).
@Suite struct RuleIteratorTests {
    /// `YYYYMMDDTHHMMSS` or `YYYYMMDD` (midnight).
    static func wall(_ text: String) -> CivilDateTime {
        let date = try! CivilDate(iso: String(text.prefix(8)))
        guard text.count > 8 else { return try! CivilDateTime(date: date) }
        let digits = Array(text.dropFirst(9)).map { Int(String($0))! }
        return try! CivilDateTime(date: date, hour: digits[0] * 10 + digits[1], minute: digits[2] * 10 + digits[3],
                                  second: digits[4] * 10 + digits[5])
    }

    static func expand(_ rule: String, _ start: String, until: String? = nil, limit: Int = 400) -> [String] {
        let iterator = RuleIterator(rule: try! RecurrenceRule(parsing: rule), start: wall(start), until: until.map(wall))
        return iterator.prefix(limit).map { time in
            start.count == 8 ? time.date.basicISO : BasicDateTime.basic(time)
        }
    }

    static func days(_ list: String, at time: String = "T090000") -> [String] {
        list.split(separator: " ").map { $0 + time }
    }

    @Test func dailyForTenOccurrences() {
        #expect(Self.expand("FREQ=DAILY;COUNT=10", "19970902T090000") == Self.days("19970902 19970903 19970904 19970905 19970906 19970907 19970908 19970909 19970910 19970911"))
    }

    @Test func dailyUntilDecember24() {
        // UNTIL=19971224T000000Z is 1997-12-23 19:00 in New York.
        let result = Self.expand("FREQ=DAILY;UNTIL=19971224T000000Z", "19970902T090000", until: "19971223T190000")
        #expect(result.count == 113)
        #expect(result.last == "19971223T090000")
    }

    @Test func intervals() {
        #expect(Self.expand("FREQ=DAILY;INTERVAL=2", "19970902T090000", limit: 4) == Self.days("19970902 19970904 19970906 19970908"))
        #expect(Self.expand("FREQ=DAILY;INTERVAL=10;COUNT=5", "19970902T090000") == Self.days("19970902 19970912 19970922 19971002 19971012"))
    }

    @Test func everyDayInJanuaryForThreeYears() {
        let yearly = Self.expand("FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA", "19980101T090000", until: "20000131T090000")
        let daily = Self.expand("FREQ=DAILY;UNTIL=20000131T140000Z;BYMONTH=1", "19980101T090000", until: "20000131T090000")
        #expect(yearly.count == 93)
        #expect(yearly == daily)
        #expect(yearly[31] == "19990101T090000")
    }

    @Test func weekly() {
        #expect(Self.expand("FREQ=WEEKLY;COUNT=10", "19970902T090000") == Self.days("19970902 19970909 19970916 19970923 19970930 19971007 19971014 19971021 19971028 19971104"))
        #expect(Self.expand("FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH", "19970902T090000") == Self.days("19970902 19970904 19970909 19970911 19970916 19970918 19970923 19970925 19970930 19971002"))
        let everyOther = Self.expand("FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR", "19970901T090000", until: "19971223T190000")
        #expect(everyOther == Self.days("19970901 19970903 19970905 19970915 19970917 19970919 19970929 19971001 19971003 19971013 19971015 19971017 19971027 19971029 19971031 19971110 19971112 19971114 19971124 19971126 19971128 19971208 19971210 19971212 19971222"))
    }

    @Test func weekStartChangesTheResult() {
        #expect(Self.expand("FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO", "19970805T090000") == Self.days("19970805 19970810 19970819 19970824"))
        #expect(Self.expand("FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU", "19970805T090000") == Self.days("19970805 19970817 19970819 19970831"))
    }

    @Test func monthlyByWeekday() {
        #expect(Self.expand("FREQ=MONTHLY;COUNT=10;BYDAY=1FR", "19970905T090000") == Self.days("19970905 19971003 19971107 19971205 19980102 19980206 19980306 19980403 19980501 19980605"))
        #expect(Self.expand("FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU", "19970907T090000") == Self.days("19970907 19970928 19971102 19971130 19980104 19980125 19980301 19980329 19980503 19980531"))
        #expect(Self.expand("FREQ=MONTHLY;COUNT=6;BYDAY=-2MO", "19970922T090000") == Self.days("19970922 19971020 19971117 19971222 19980119 19980216"))
        #expect(Self.expand("FREQ=MONTHLY;INTERVAL=2;BYDAY=TU", "19970902T090000", limit: 18) == Self.days("19970902 19970909 19970916 19970923 19970930 19971104 19971111 19971118 19971125 19980106 19980113 19980120 19980127 19980303 19980310 19980317 19980324 19980331"))
    }

    @Test func monthlyByMonthDay() {
        #expect(Self.expand("FREQ=MONTHLY;BYMONTHDAY=-3", "19970928T090000", limit: 6) == Self.days("19970928 19971029 19971128 19971229 19980129 19980226"))
        #expect(Self.expand("FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15", "19970902T090000") == Self.days("19970902 19970915 19971002 19971015 19971102 19971115 19971202 19971215 19980102 19980115"))
        #expect(Self.expand("FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1", "19970930T090000") == Self.days("19970930 19971001 19971031 19971101 19971130 19971201 19971231 19980101 19980131 19980201"))
        #expect(Self.expand("FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15", "19970910T090000") == Self.days("19970910 19970911 19970912 19970913 19970914 19970915 19990310 19990311 19990312 19990313"))
        // Invalid dates are skipped, not moved (RFC 5545): 30 February does not exist.
        #expect(Self.expand("FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5", "20070115T090000") == Self.days("20070115 20070130 20070215 20070315 20070330"))
    }

    @Test func yearly() {
        #expect(Self.expand("FREQ=YEARLY;COUNT=10;BYMONTH=6,7", "19970610T090000") == Self.days("19970610 19970710 19980610 19980710 19990610 19990710 20000610 20000710 20010610 20010710"))
        #expect(Self.expand("FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3", "19970310T090000") == Self.days("19970310 19990110 19990210 19990310 20010110 20010210 20010310 20030110 20030210 20030310"))
        #expect(Self.expand("FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200", "19970101T090000") == Self.days("19970101 19970410 19970719 20000101 20000409 20000718 20030101 20030410 20030719 20060101"))
        #expect(Self.expand("FREQ=YEARLY;BYDAY=20MO", "19970519T090000", limit: 3) == Self.days("19970519 19980518 19990517"))
        #expect(Self.expand("FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO", "19970512T090000", limit: 3) == Self.days("19970512 19980511 19990517"))
        #expect(Self.expand("FREQ=YEARLY;BYMONTH=3;BYDAY=TH", "19970313T090000", limit: 11) == Self.days("19970313 19970320 19970327 19980305 19980312 19980319 19980326 19990304 19990311 19990318 19990325"))
        let summer = Self.expand("FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8", "19970605T090000", limit: 14)
        #expect(summer == Self.days("19970605 19970612 19970619 19970626 19970703 19970710 19970717 19970724 19970731 19970807 19970814 19970821 19970828 19980604"))
    }

    /// Where RFC 5545 leaves room and libical decides (checked against libical 3.0.16 with
    /// Peers/libical-peer.c, and the held-out version for BYWEEKNO).
    @Test func whatTheRuleDoesNotSayComesFromDTSTART() {
        // A yearly day of the month stays in DTSTART's month (29 February every leap year).
        #expect(Self.expand("FREQ=YEARLY;BYMONTHDAY=29;COUNT=3", "20240229") == ["20240229", "20280229", "20320229"])
        #expect(Self.expand("FREQ=YEARLY;BYMONTHDAY=-29,-1;COUNT=4", "20240201") == ["20240201", "20240229", "20250228", "20260228"])
        #expect(Self.expand("FREQ=YEARLY;BYDAY=FR;BYMONTHDAY=13;COUNT=3", "20240913") == ["20240913", "20300913", "20410913"])
        // With BYMONTH, or BYYEARDAY, every month the rule names (as before).
        #expect(Self.expand("FREQ=YEARLY;BYMONTH=1,7;BYMONTHDAY=4;COUNT=3", "20240104") == ["20240104", "20240704", "20250104"])
        // BYWEEKNO counts INTERVAL in week-numbering years: 2024-12-31 is in week 1 of 2025.
        #expect(Self.expand("FREQ=YEARLY;BYWEEKNO=1;BYDAY=MO,TU;INTERVAL=3;COUNT=5", "20241231")
                == ["20241231", "20280103", "20280104", "20301230", "20301231"])
        // 2010-01-02 is the Saturday of week 53 of 2009; six week-years later, 2016-01-02.
        #expect(Self.expand("FREQ=YEARLY;BYWEEKNO=53;INTERVAL=6;COUNT=2", "20100102") == ["20100102", "20160102"])
    }

    @Test func combinedLimits() {
        // Friday the 13th (the RFC excludes DTSTART with EXDATE; here it is the first result).
        #expect(Self.expand("FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13", "19970902T090000", limit: 6).dropFirst() == Self.days("19980213 19980313 19981113 19990813 20001013")[...])
        #expect(Self.expand("FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13", "19970913T090000", limit: 10) == Self.days("19970913 19971011 19971108 19971213 19980110 19980207 19980307 19980411 19980509 19980613"))
        #expect(Self.expand("FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8", "19961105T090000", limit: 3) == Self.days("19961105 20001107 20041102"))
    }

    @Test func setPositions() {
        #expect(Self.expand("FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3", "19970904T090000") == Self.days("19970904 19971007 19971106"))
        #expect(Self.expand("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2", "19970929T090000", limit: 7) == Self.days("19970929 19971030 19971127 19971230 19980129 19980226 19980330"))
    }

    @Test func subDaily() {
        #expect(Self.expand("FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T170000", "19970902T090000") == ["19970902T090000", "19970902T120000", "19970902T150000"])
        #expect(Self.expand("FREQ=MINUTELY;INTERVAL=15;COUNT=6", "19970902T090000") == ["19970902T090000", "19970902T091500", "19970902T093000", "19970902T094500", "19970902T100000", "19970902T101500"])
        #expect(Self.expand("FREQ=MINUTELY;INTERVAL=90;COUNT=4", "19970902T090000") == ["19970902T090000", "19970902T103000", "19970902T120000", "19970902T133000"])
        let daily = Self.expand("FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16;BYMINUTE=0,20,40", "19970902T090000", limit: 30)
        let minutely = Self.expand("FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16", "19970902T090000", limit: 30)
        #expect(daily == minutely)
        #expect(daily[23] == "19970902T164000")
        #expect(daily[24] == "19970903T090000")
    }

    @Test func untilAsADate() {
        #expect(Self.expand("FREQ=DAILY;UNTIL=19970905", "19970902T090000") == Self.days("19970902 19970903 19970904 19970905"))
    }

    @Test func rulesThatNeverMatchEnd() {
        var iterator = RuleIterator(rule: try! RecurrenceRule(parsing: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30"), start: Self.wall("20250101T090000"))
        #expect(iterator.next() != nil)  // DTSTART itself
        #expect(iterator.next() == nil)
        #expect(iterator.exhaustedEarly)
        // 29 February on a Sunday takes decades, but comes.
        let leap = Self.expand("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=SU", "20000101T090000", limit: 3)
        #expect(leap == Self.days("20000101 20040229 20320229"))
    }

    /// Found by Scripts/fuzz.py: BYMONTH=13 (allowed for calendars with a thirteenth month) in a
    /// Gregorian rule reached `1...0` in the month-day code and trapped. Months the Gregorian
    /// calendar lacks — 13, leap months — match nothing; with nothing else the rule never matches.
    @Test func monthsTheGregorianCalendarLacks() {
        for rule in ["FREQ=YEARLY;BYMONTH=13;BYMONTHDAY=-1", "FREQ=YEARLY;BYMONTH=13", "FREQ=YEARLY;BYMONTH=6L",
                     "RSCALE=GREGORIAN;FREQ=YEARLY;BYMONTH=13;BYMONTHDAY=31;SKIP=FORWARD", "FREQ=MONTHLY;BYMONTH=13;BYDAY=MO",
                     "FREQ=DAILY;BYMONTH=13", "FREQ=YEARLY;BYMONTH=13;BYYEARDAY=1", "FREQ=YEARLY;BYMONTH=13;BYWEEKNO=1"] {
            var iterator = RuleIterator(rule: try! RecurrenceRule(parsing: rule), start: Self.wall("20250101T090000"))
            #expect(iterator.next() == Self.wall("20250101T090000"), "\(rule)")  // DTSTART itself
            #expect(iterator.next() == nil, "\(rule)")
            #expect(iterator.exhaustedEarly, "\(rule)")
        }
        // Nor does the Chinese calendar have a thirteenth month or a 31st day. Found by the ics
        // fuzzer: such a rule walked 1,000 lunar years to find that out, most of them past the
        // published table where each year costs ICU's astronomy (seconds per rule); now no
        // period is looked at.
        for rule in ["RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=13;BYMONTHDAY=-1", "RSCALE=CHINESE;FREQ=MONTHLY;BYMONTHDAY=31,-31"] {
            var iterator = RuleIterator(rule: try! RecurrenceRule(parsing: rule), start: Self.wall("20260216T000000"))
            #expect(iterator.next() == Self.wall("20260216T000000"), "\(rule)")
            #expect(iterator.next() == nil, "\(rule)")
            #expect(iterator.exhaustedEarly, "\(rule)")
        }
        // Beside a real month, 13 is ignored.
        #expect(Self.expand("FREQ=YEARLY;BYMONTH=13,2;BYMONTHDAY=-1", "20250101", limit: 3) == ["20250101", "20250228", "20260228"])
    }

    /// Every second of a year is one YEARLY period (31 million candidates); it is read by
    /// position, not built (it took 400 MB), and DTSTART is found in it by search.
    @Test func periodsWithEverySecond() {
        let all = { (n: Int) in (0..<n).map(String.init).joined(separator: ",") }
        // BYMONTH names every month: without it a yearly BYMONTHDAY keeps to DTSTART's month.
        let rule = "FREQ=YEARLY;BYMONTH=\(all(13).dropFirst(2));BYMONTHDAY=1,\(all(32).dropFirst(2));BYHOUR=\(all(24));BYMINUTE=\(all(60));BYSECOND=\(all(60))"
        #expect(Self.expand(rule, "20250301T090000", limit: 3) == ["20250301T090000", "20250301T090001", "20250301T090002"])
        #expect(Self.expand(rule + ";BYSETPOS=-1,2", "20250301T090000", limit: 4)
                == ["20250301T090000", "20251231T235959", "20260101T000001", "20261231T235959"])
        // A leap second (60) reads as 59, as before.
        #expect(Self.expand("FREQ=DAILY;BYHOUR=23;BYMINUTE=59;BYSECOND=58,60", "20250101T000000", limit: 4)
                == ["20250101T000000", "20250101T235958", "20250101T235959", "20250102T235958"])
    }

    @Test func skippingToAWindow() {
        let start = Self.wall("19600912T000000")
        let iterator = RuleIterator(rule: try! RecurrenceRule(parsing: "FREQ=DAILY"), start: start, skipTo: Self.wall("20250101T000000"))
        let first = Array(iterator.prefix(3))
        // The periods before the window are skipped, not generated; DTSTART is not repeated.
        #expect(first.allSatisfy { $0.date.year >= 2024 })
        #expect(first.contains(Self.wall("20250101T000000")))
    }

    // MARK: RFC 7529

    @Test func chineseNewYear() {
        #expect(Self.expand("RSCALE=CHINESE;FREQ=YEARLY", "20130210", limit: 4) == ["20130210", "20140131", "20150219", "20160208"])
    }

    @Test func gregorianSkip() {
        #expect(Self.expand("RSCALE=GREGORIAN;FREQ=YEARLY;SKIP=FORWARD", "20120229", limit: 5) == ["20120229", "20130301", "20140301", "20150301", "20160229"])
        #expect(Self.expand("RSCALE=GREGORIAN;FREQ=MONTHLY;COUNT=4;SKIP=BACKWARD", "20150131") == ["20150131", "20150228", "20150331", "20150430"])
        // Without RSCALE, RFC 5545 omits the impossible dates.
        #expect(Self.expand("FREQ=YEARLY", "20120229", limit: 3) == ["20120229", "20160229", "20200229"])
    }

    /// Lunar dates below come from lunar-python (the independent source): 八月十五 each year.
    @Test func lunarBirthday() {
        #expect(Self.expand("RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=8;BYMONTHDAY=15", "20251006", limit: 6) == ["20251006", "20260925", "20270915", "20281003", "20290922", "20300912"])
        #expect(Self.expand("RSCALE=CHINESE;FREQ=YEARLY", "20251006", limit: 3) == ["20251006", "20260925", "20270915"])
    }

    @Test func lunarLeapMonthWithSkip() {
        // DTSTART is 閏六月初一 2025; the next leap sixth month is in 2036.
        #expect(Self.expand("RSCALE=CHINESE;FREQ=YEARLY", "20250725", limit: 2) == ["20250725", ChineseCalendarDates.leapSixth2036])
        #expect(Self.expand("RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD", "20250725", limit: 4) == ["20250725", "20260714", "20270704", "20280722"])
        #expect(Self.expand("RSCALE=CHINESE;FREQ=YEARLY;SKIP=FORWARD", "20250725", limit: 4) == ["20250725", "20260813", "20270802", "20280820"])
    }

    @Test func lunarNewYearsEve() {
        // 除夕: the last day of the twelfth month, 29 or 30 days long.
        let last = Self.expand("RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=-1", "20260216", limit: 5)
        #expect(last == ["20260216", "20270205", "20280125", "20290212", "20300202"])
        #expect(Self.expand("RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=30;SKIP=BACKWARD", "20260216", limit: 5) == last)
        // Without SKIP, 臘月三十 happens only in years whose twelfth month has 30 days.
        #expect(Self.expand("RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=30", "20260216", limit: 2) == ["20260216", "20300202"])
    }

    @Test func lunarMonthly() {
        // 初一 of every lunar month, the leap month included: 2025 has 閏六月.
        let firsts = Self.expand("RSCALE=CHINESE;FREQ=MONTHLY", "20250625", limit: 4)
        #expect(firsts == ["20250625", "20250725", "20250823", "20250922"])
    }

    @Test func parseErrorsNameThePart() throws {
        let error = #expect(throws: RecurrenceError.self) { try RecurrenceRule(parsing: "FREQ=FORTNIGHTLY") }
        #expect(error?.part == "FREQ=FORTNIGHTLY")
        #expect(throws: RecurrenceError.self) { try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=3;UNTIL=20250101") }
        #expect(throws: RecurrenceError.self) { try RecurrenceRule(parsing: "FREQ=MONTHLY;BYMONTHDAY=0") }
        #expect(throws: RecurrenceError.self) { try RecurrenceRule(parsing: "BYDAY=MO") }
        // Names are case-insensitive; an extension part is carried, in its place.
        #expect(try RecurrenceRule(parsing: "freq=weekly;x-name=1;byday=mo,-1fr").description == "FREQ=WEEKLY;X-NAME=1;BYDAY=MO,-1FR")
        // Typed rules compare by meaning: the order parts were written in does not matter.
        #expect(try RecurrenceRule(parsing: "BYDAY=MO;FREQ=WEEKLY;WKST=MO") == RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO"))
        var built = RecurrenceRule(frequency: .yearly, scale: "CHINESE")
        built.byMonth = [.init(8)]
        built.byMonthDay = [15]
        #expect(built.description == "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=8;BYMONTHDAY=15")
        #expect(try RecurrenceRule(parsing: "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=6L;SKIP=BACKWARD").description == "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=6L;SKIP=BACKWARD")
    }

    /// The shared transition-table clock answers as ICU does, hour by hour through the days
    /// clocks change (gaps shifted forward, repeated hours on the earlier offset), in zones with
    /// half-hour DST, southern summers, a 1940s history and no DST at all.
    @Test func sharedClocksAnswerAsICU() throws {
        let zones = ["America/New_York", "Australia/Lord_Howe", "America/Sao_Paulo", "Asia/Taipei", "Europe/London", "Asia/Shanghai"]
        for name in zones {
            let zone = try TimeZoneID(name)
            let clock = ICUWallClock.shared(zone)
            #expect(ICUWallClock.shared(zone) === clock)
            for year in [1942, 1988, 2024, 2025] {
                var cursor = Date(timeIntervalSince1970: Double(CivilDateTime(unchecked: CivilDate(unchecked: year, 1, 1), 0, 0, 0).secondsSinceEpoch))
                var checked = 0
                while let next = zone.nextTransition(after: cursor), checked < 4,
                      next.timeIntervalSince1970 < Double(CivilDateTime(unchecked: CivilDate(unchecked: year + 1, 1, 1), 0, 0, 0).secondsSinceEpoch) {
                    for hours in stride(from: -30, through: 30, by: 1) {
                        let instant = next.addingTimeInterval(Double(hours) * 1800)
                        #expect(clock.offset(at: instant) == zone.offset(at: instant).totalSeconds, "\(name) \(instant)")
                        let wall = zone.wallTime(at: instant)
                        for minutes in [0, 30, 59] {
                            let time = CivilDateTime(unchecked: wall.date, wall.hour, minutes, 0)
                            #expect(clock.instant(for: time) == (try zone.instant(for: time)), "\(name) \(time)")
                        }
                    }
                    cursor = next
                    checked += 1
                }
            }
        }
    }

    /// The byte-level reader keeps what the earlier Character-level one read, part by part.
    @Test func partsAreReadAsBefore() throws {
        func reason(_ text: String) -> String? {
            do { _ = try RecurrenceRule(parsing: text); return nil } catch { return error.part + " → " + error.reason }
        }
        // Empty parts are skipped; a part needs a name and a value; a value runs to the part's end.
        #expect(try RecurrenceRule(parsing: ";;FREQ=DAILY;;").frequency == .daily)
        #expect(reason("FREQ=DAILY;COUNT=") == "COUNT= → name=value")
        #expect(reason("FREQ=DAILY;=3") == "=3 → name=value")
        #expect(try RecurrenceRule(parsing: "FREQ=DAILY;X-A==B").extensions == [.init(name: "X-A", value: "=B")])
        #expect(reason("FREQ=DAILY;freq=weekly") == "freq=weekly → each part only once")
        // Numbers as Int(_:) reads them: a sign, ASCII digits, any size that fits.
        #expect(try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=+5").count == 5)
        #expect(try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=99999999999").count == 99_999_999_999)
        #expect(reason("FREQ=DAILY;COUNT=99999999999999999999") == "COUNT=99999999999999999999 → a positive number")
        #expect(reason("FREQ=DAILY;INTERVAL=2x") == "INTERVAL=2x → a positive number")
        #expect(reason("FREQ=MONTHLY;BYMONTHDAY=-9223372036854775808") != nil)
        #expect(try RecurrenceRule(parsing: "FREQ=MONTHLY;BYMONTHDAY=1,,-1").byMonthDay == [1, -1])
        // Keywords in either case; a leap month's L too; weekdays with an ordinal.
        let rule = try RecurrenceRule(parsing: "rscale=chinese;freq=yearly;bymonth=6l,12;skip=forward;wkst=su;byday=+2tu,-1Fr")
        #expect(rule.scale == "CHINESE" && rule.skip == .forward && rule.weekStart == .sunday)
        #expect(rule.byMonth == [.init(6, isLeap: true), .init(12)])
        #expect(rule.byDay == [.init(.tuesday, ordinal: 2), .init(.friday, ordinal: -1)])
        #expect(reason("FREQ=WEEKLY;BYDAY=0MO") == "BYDAY=0MO → weekdays like MO, 1MO, -1FR")
        #expect(reason("FREQ=WEEKLY;BYDAY=M") == "BYDAY=M → weekdays like MO, 1MO, -1FR")
        #expect(reason("FREQ=WEEKLY;WKST=MON") == "WKST=MON → a weekday: MO…SU")
        #expect(reason("FREQ=YEARLY;BYMONTH=14") == "BYMONTH=14 → months 1…12, with L for a leap month (6L)")
        // Text outside ASCII: names uppercased by Unicode's rules, values kept as written.
        #expect(try RecurrenceRule(parsing: "FREQ=DAILY;x-é=ü").extensions == [.init(name: "X-É", value: "ü")])
        #expect(try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20251231T235959Z").until == .utc(CivilDateTime(unchecked: CivilDate(unchecked: 2025, 12, 31), 23, 59, 59)))
    }
}

enum ChineseCalendarDates {
    /// 閏六月初一 2036, from lunar-python: the next year after 2025 with a leap sixth month.
    static let leapSixth2036 = "20360723"
}
