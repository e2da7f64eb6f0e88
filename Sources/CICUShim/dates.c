#include "require_icu.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/udat.h>
#include <unicode/udatpg.h>
#include <unicode/ucal.h>
#include "internal.h"

static const UChar UTC_ID[] = {'U', 'T', 'C', 0};

static void default_zone(const uint16_t **zone, int32_t *length) {
    if (*zone == NULL || *length == 0) {
        *zone = (const uint16_t *)UTC_ID;
        *length = 3;
    }
}

int32_t alm_date_best_pattern(const char *locale, const uint16_t *skeleton, int32_t skeletonLength,
                              uint16_t *out, int32_t capacity, int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    UDateTimePatternGenerator *generator = udatpg_open(locale, err);
    if (U_FAILURE(*err)) return 0;
    int32_t length = udatpg_getBestPattern(generator, (const UChar *)skeleton, skeletonLength,
                                           (UChar *)out, capacity, err);
    udatpg_close(generator);
    return length;
}

static AlmDateFormat *finish_open(UDateFormat *format, UErrorCode *err) {
    if (U_FAILURE(*err)) {
        if (format) udat_close(format);
        return NULL;
    }
    // Strict parsing: "2025-02-30" is an error, not 2 March.
    udat_setLenient(format, 0);
    return (AlmDateFormat *)format;
}

AlmDateFormat *alm_date_open_pattern(const char *locale, const uint16_t *zone, int32_t zoneLength,
                                     const uint16_t *pattern, int32_t patternLength, int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    default_zone(&zone, &zoneLength);
    UDateFormat *format = udat_open(UDAT_PATTERN, UDAT_PATTERN, locale, (const UChar *)zone, zoneLength,
                                    (const UChar *)pattern, patternLength, err);
    return finish_open(format, err);
}

AlmDateFormat *alm_date_open_style(const char *locale, const uint16_t *zone, int32_t zoneLength,
                                   int32_t dateStyle, int32_t timeStyle, int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    default_zone(&zone, &zoneLength);
    UDateFormat *format = udat_open((UDateFormatStyle)timeStyle, (UDateFormatStyle)dateStyle, locale,
                                    (const UChar *)zone, zoneLength, NULL, 0, err);
    return finish_open(format, err);
}

void alm_date_close(AlmDateFormat *format) {
    if (format) udat_close((UDateFormat *)format);
}

int32_t alm_date_format(const AlmDateFormat *format, double millis, uint16_t *out, int32_t capacity,
                        int32_t *status) {
    return udat_format((const UDateFormat *)format, millis, (UChar *)out, capacity, NULL, (UErrorCode *)status);
}

double alm_date_parse(const AlmDateFormat *format, const uint16_t *text, int32_t length, int32_t *position,
                      int32_t *status) {
    *position = 0;
    return udat_parse((const UDateFormat *)format, (const UChar *)text, length, position, (UErrorCode *)status);
}

int32_t alm_date_pattern(const AlmDateFormat *format, uint16_t *out, int32_t capacity, int32_t *status) {
    return udat_toPattern((const UDateFormat *)format, 0, (UChar *)out, capacity, (UErrorCode *)status);
}

// MARK: Calendar fields

static UCalendar *open_calendar(const char *locale, const uint16_t *zone, int32_t zoneLength, UErrorCode *err) {
    default_zone(&zone, &zoneLength);
    return ucal_open((const UChar *)zone, zoneLength, locale, UCAL_DEFAULT, err);
}

int alm_calendar_fields(const char *locale, const uint16_t *zone, int32_t zoneLength, double millis,
                        AlmCalendarFields *fields, int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    UCalendar *calendar = open_calendar(locale, zone, zoneLength, err);
    if (U_FAILURE(*err)) {
        if (calendar) ucal_close(calendar);
        return 0;
    }
    ucal_setMillis(calendar, millis, err);
    fields->era = ucal_get(calendar, UCAL_ERA, err);
    fields->year = ucal_get(calendar, UCAL_YEAR, err);
    fields->extendedYear = ucal_get(calendar, UCAL_EXTENDED_YEAR, err);
    fields->month = ucal_get(calendar, UCAL_MONTH, err) + 1;
    fields->isLeapMonth = ucal_get(calendar, UCAL_IS_LEAP_MONTH, err);
    fields->day = ucal_get(calendar, UCAL_DATE, err);
    fields->hour = ucal_get(calendar, UCAL_HOUR_OF_DAY, err);
    fields->minute = ucal_get(calendar, UCAL_MINUTE, err);
    fields->second = ucal_get(calendar, UCAL_SECOND, err);
    fields->millisecond = ucal_get(calendar, UCAL_MILLISECOND, err);
    fields->weekday = ucal_get(calendar, UCAL_DAY_OF_WEEK, err);
    ucal_close(calendar);
    return U_SUCCESS(*err);
}

double alm_calendar_millis(const char *locale, const uint16_t *zone, int32_t zoneLength,
                           const AlmCalendarFields *fields, int strict, int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    UCalendar *calendar = open_calendar(locale, zone, zoneLength, err);
    if (U_FAILURE(*err)) {
        if (calendar) ucal_close(calendar);
        return 0;
    }
    ucal_clear(calendar);
    ucal_setAttribute(calendar, UCAL_LENIENT, strict ? 0 : 1);
    ucal_set(calendar, UCAL_EXTENDED_YEAR, fields->extendedYear);
    ucal_set(calendar, UCAL_MONTH, fields->month - 1);
    ucal_set(calendar, UCAL_IS_LEAP_MONTH, fields->isLeapMonth);
    ucal_set(calendar, UCAL_DATE, fields->day);
    ucal_set(calendar, UCAL_HOUR_OF_DAY, fields->hour);
    ucal_set(calendar, UCAL_MINUTE, fields->minute);
    ucal_set(calendar, UCAL_SECOND, fields->second);
    ucal_set(calendar, UCAL_MILLISECOND, fields->millisecond);
    double millis = ucal_getMillis(calendar, err);
    ucal_close(calendar);
    return millis;
}

// MARK: Time zones

int32_t alm_tz_canonical(const uint16_t *zone, int32_t length, uint16_t *out, int32_t capacity,
                         int *isSystem, int32_t *status) {
    UBool system = 0;
    int32_t result = ucal_getCanonicalTimeZoneID((const UChar *)zone, length, (UChar *)out, capacity, &system,
                                                 (UErrorCode *)status);
    *isSystem = system;
    return result;
}

int32_t alm_tz_from_windows(const uint16_t *windowsName, int32_t length, const char *region, uint16_t *out,
                            int32_t capacity, int32_t *status) {
    return ucal_getTimeZoneIDForWindowsID((const UChar *)windowsName, length, region, (UChar *)out, capacity,
                                          (UErrorCode *)status);
}

int32_t alm_tz_to_windows(const uint16_t *zone, int32_t length, uint16_t *out, int32_t capacity,
                          int32_t *status) {
    return ucal_getWindowsTimeZoneID((const UChar *)zone, length, (UChar *)out, capacity, (UErrorCode *)status);
}

// A Gregorian calendar per zone, kept open per thread. Opening one loads the zone's rules from
// ICU's data (about 200,000 instructions), and the offset, wall-time and transition questions
// below come one at a time: a batch of small calendars asked them a few hundred times per file,
// and opening a calendar for each was a tenth of the batch. A few zones per thread are kept
// (a file rarely uses more than two), the least recently opened given up first; the thread's
// calendars are closed when it ends.
enum { ZONE_SLOTS = 4, ZONE_NAME_UNITS = 64 };

typedef struct {
    UCalendar *calendar;
    int32_t length;
    UChar name[ZONE_NAME_UNITS];
} ZoneSlot;

typedef struct {
    ZoneSlot slots[ZONE_SLOTS];
    int32_t next;
} ZoneCalendars;

static pthread_key_t zone_calendars_key;
static pthread_once_t zone_calendars_once = PTHREAD_ONCE_INIT;
static int zone_calendars_ready = 0;

static void zone_calendars_free(void *pointer) {
    ZoneCalendars *cache = pointer;
    for (int i = 0; i < ZONE_SLOTS; i++) {
        if (cache->slots[i].calendar) ucal_close(cache->slots[i].calendar);
    }
    free(cache);
}

static void zone_calendars_make_key(void) {
    zone_calendars_ready = pthread_key_create(&zone_calendars_key, zone_calendars_free) == 0;
}

/// The calendar for `zone`, from this thread's cache when it is there. `*owned` says whether the
/// caller must close it (a name too long to keep, or no cache).
static UCalendar *zone_calendar(const uint16_t *zone, int32_t length, int *owned, UErrorCode *err) {
    *owned = 1;
    if (length <= 0 || length > ZONE_NAME_UNITS) {
        return ucal_open((const UChar *)zone, length, "en_US@calendar=gregorian", UCAL_GREGORIAN, err);
    }
    pthread_once(&zone_calendars_once, zone_calendars_make_key);
    ZoneCalendars *cache = zone_calendars_ready ? pthread_getspecific(zone_calendars_key) : NULL;
    if (zone_calendars_ready && cache == NULL) {
        cache = calloc(1, sizeof *cache);
        if (cache && pthread_setspecific(zone_calendars_key, cache) != 0) {
            free(cache);
            cache = NULL;
        }
    }
    if (cache) {
        for (int i = 0; i < ZONE_SLOTS; i++) {
            ZoneSlot *slot = &cache->slots[i];
            if (slot->calendar && slot->length == length &&
                memcmp(slot->name, zone, (size_t)length * sizeof(UChar)) == 0) {
                *owned = 0;
                return slot->calendar;
            }
        }
    }
    UCalendar *calendar = ucal_open((const UChar *)zone, length, "en_US@calendar=gregorian", UCAL_GREGORIAN, err);
    if (U_FAILURE(*err) || cache == NULL) return calendar;
    ZoneSlot *slot = &cache->slots[cache->next];
    cache->next = (cache->next + 1) % ZONE_SLOTS;
    if (slot->calendar) ucal_close(slot->calendar);
    slot->calendar = calendar;
    slot->length = length;
    memcpy(slot->name, zone, (size_t)length * sizeof(UChar));
    *owned = 0;
    return calendar;
}

static void zone_calendar_done(UCalendar *calendar, int owned) {
    if (calendar && owned) ucal_close(calendar);
}

int alm_tz_offsets(const uint16_t *zone, int32_t length, double millis, int32_t *rawOffset, int32_t *dstOffset,
                   int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    int owned = 1;
    UCalendar *calendar = zone_calendar(zone, length, &owned, err);
    if (U_FAILURE(*err)) {
        zone_calendar_done(calendar, owned);
        return 0;
    }
    ucal_setMillis(calendar, millis, err);
    *rawOffset = ucal_get(calendar, UCAL_ZONE_OFFSET, err);
    *dstOffset = ucal_get(calendar, UCAL_DST_OFFSET, err);
    zone_calendar_done(calendar, owned);
    return U_SUCCESS(*err);
}

double alm_tz_wall_to_millis(const uint16_t *zone, int32_t length, int32_t year, int32_t month, int32_t day,
                             int32_t hour, int32_t minute, int32_t second, int32_t millisecond, int32_t skipped,
                             int32_t repeated, int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    int owned = 1;
    UCalendar *calendar = zone_calendar(zone, length, &owned, err);
    if (U_FAILURE(*err)) {
        zone_calendar_done(calendar, owned);
        return 0;
    }
    // ICU's names are about which side's offset applies: for a skipped time, LAST uses the offset
    // before the gap (02:30 -> 03:30 DST, what RFC 5545 asks for) and FIRST the offset after it.
    static const UCalendarWallTimeOption skippedOptions[] = {UCAL_WALLTIME_LAST, UCAL_WALLTIME_FIRST,
                                                             UCAL_WALLTIME_NEXT_VALID};
    ucal_setAttribute(calendar, UCAL_SKIPPED_WALL_TIME, skippedOptions[skipped < 0 || skipped > 2 ? 0 : skipped]);
    ucal_setAttribute(calendar, UCAL_REPEATED_WALL_TIME, repeated == 1 ? UCAL_WALLTIME_LAST : UCAL_WALLTIME_FIRST);
    // Lenient on purpose: a strict calendar rejects skipped times instead of applying the policy.
    // Callers validate the field ranges themselves.
    ucal_clear(calendar);
    ucal_setDateTime(calendar, year, month - 1, day, hour, minute, second, err);
    ucal_set(calendar, UCAL_MILLISECOND, millisecond);
    double millis = ucal_getMillis(calendar, err);
    zone_calendar_done(calendar, owned);
    return millis;
}

double alm_tz_next_transition(const uint16_t *zone, int32_t length, double millis, int *found, int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    *found = 0;
    int owned = 1;
    UCalendar *calendar = zone_calendar(zone, length, &owned, err);
    if (U_FAILURE(*err)) {
        zone_calendar_done(calendar, owned);
        return 0;
    }
    ucal_setMillis(calendar, millis, err);
    UDate transition = 0;
    *found = ucal_getTimeZoneTransitionDate(calendar, UCAL_TZ_TRANSITION_NEXT, &transition, err);
    zone_calendar_done(calendar, owned);
    return *found ? transition : 0;
}

int32_t alm_tz_display_name(const uint16_t *zone, int32_t length, const char *locale, int32_t style,
                            uint16_t *out, int32_t capacity, int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    UCalendar *calendar = ucal_open((const UChar *)zone, length, locale, UCAL_GREGORIAN, err);
    if (U_FAILURE(*err)) {
        if (calendar) ucal_close(calendar);
        return 0;
    }
    static const UCalendarDisplayNameType types[] = {UCAL_STANDARD, UCAL_DST, UCAL_SHORT_STANDARD};
    int32_t result = ucal_getTimeZoneDisplayName(calendar, types[style < 0 || style > 2 ? 0 : style], locale,
                                                 (UChar *)out, capacity, err);
    ucal_close(calendar);
    return result;
}

AlmStringList *alm_tz_all(int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    UEnumeration *zones = ucal_openTimeZoneIDEnumeration(UCAL_ZONE_TYPE_CANONICAL, NULL, NULL, err);
    return alm_list_wrap(zones, err);
}
