// Plain-C wrappers over the ICU calls Almanac needs.
//
// Why this exists: ICU renames its functions with version-suffix macros (unum_open is unum_open_72)
// that Swift cannot see, and ICU's headers clash with the ICU that Foundation bundles. This header
// therefore exposes only plain C types and opaque handles; the .c files include ICU.
//
// Conventions: every function that can fail takes `int32_t *status` (an ICU UErrorCode; values > 0
// are failures, values < 0 are warnings). Functions that write UTF-16 text take a buffer and its
// capacity and return the full length needed, like ICU itself (retry with a larger buffer when the
// result exceeds the capacity). Text is UTF-16 (`uint16_t`) unless a parameter says UTF-8.
// Every UTF-16 input comes with its length: Swift's buffers carry no terminator (a read past their
// count stays inside the array's capacity, where AddressSanitizer cannot see it), so no function here
// hands ICU a UChar* it would read up to a NUL.
#ifndef ALMANAC_CICUSHIM_H
#define ALMANAC_CICUSHIM_H

#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: Status

/// True when `status` is an ICU failure (warnings are not failures).
int alm_icu_failure(int32_t status);
/// ICU's symbolic name of a status code, e.g. "U_ILLEGAL_ARGUMENT_ERROR".
const char *alm_icu_error_name(int32_t status);
/// ICU's version ("72.1") and the time zone data version ("2022e").
const char *alm_icu_version(void);
const char *alm_icu_tzdata_version(int32_t *status);
/// The status code that means "the output did not fit the buffer".
int32_t alm_icu_buffer_overflow_code(void);

// MARK: Locales

/// Canonicalizes a BCP 47 tag or ICU locale id ("zh-Hant-TW", "zh_TW@calendar=roc") to an ICU id.
int32_t alm_locale_canonical(const char *locale, char *out, int32_t capacity, int32_t *status);
/// Adds likely subtags ("zh-TW" -> "zh_Hant_TW").
int32_t alm_locale_maximize(const char *locale, char *out, int32_t capacity, int32_t *status);
/// The BCP 47 form of an ICU locale id.
int32_t alm_locale_to_bcp47(const char *locale, char *out, int32_t capacity, int32_t *status);
/// The locale's display name in another locale ("中文（台灣）").
int32_t alm_locale_display_name(const char *locale, const char *displayLocale, uint16_t *out,
                                int32_t capacity, int32_t *status);
/// Whether ICU has data for the locale's language (not just the root fallback).
int alm_locale_is_known(const char *locale);
/// The locales ICU has data for: how many, and the id of each ("en_GB", "zh_Hant_TW").
int32_t alm_locale_count_available(void);
const char *alm_locale_available(int32_t index);

// MARK: Dates

typedef struct AlmDateFormat AlmDateFormat;

/// The best pattern for a CLDR skeleton ("yMMMd") in a locale ("zh_TW" -> "y年M月d日").
int32_t alm_date_best_pattern(const char *locale, const uint16_t *skeleton, int32_t skeletonLength,
                              uint16_t *out, int32_t capacity, int32_t *status);
/// A formatter for an explicit pattern in a locale and time zone (IANA id; NULL means UTC).
AlmDateFormat *alm_date_open_pattern(const char *locale, const uint16_t *zone, int32_t zoneLength,
                                     const uint16_t *pattern, int32_t patternLength, int32_t *status);
/// A formatter for ICU's date/time styles (-1 none, 0 full, 1 long, 2 medium, 3 short).
AlmDateFormat *alm_date_open_style(const char *locale, const uint16_t *zone, int32_t zoneLength,
                                   int32_t dateStyle, int32_t timeStyle, int32_t *status);
void alm_date_close(AlmDateFormat *format);
/// Formats an instant (milliseconds since 1970-01-01T00:00:00Z).
int32_t alm_date_format(const AlmDateFormat *format, double millis, uint16_t *out, int32_t capacity,
                        int32_t *status);
/// Parses text strictly (no lenient guessing); `position` is set to where parsing stopped
/// (on failure, the error index).
double alm_date_parse(const AlmDateFormat *format, const uint16_t *text, int32_t length,
                      int32_t *position, int32_t *status);
/// The formatter's pattern.
int32_t alm_date_pattern(const AlmDateFormat *format, uint16_t *out, int32_t capacity, int32_t *status);

// MARK: Calendar fields

/// Fields of an instant in a calendar ("zh_TW@calendar=roc", "zh@calendar=chinese") and zone.
typedef struct AlmCalendarFields {
    int32_t era;
    int32_t year;          // year within the era (ROC: 114), or the cyclic year for Chinese
    int32_t extendedYear;  // proleptic year number of the calendar
    int32_t month;         // 1-based
    int32_t isLeapMonth;   // Chinese calendar only
    int32_t day;
    int32_t hour, minute, second, millisecond;
    int32_t weekday;       // 1 = Sunday ... 7 = Saturday
} AlmCalendarFields;

int alm_calendar_fields(const char *locale, const uint16_t *zone, int32_t zoneLength, double millis,
                        AlmCalendarFields *fields, int32_t *status);
/// The instant for fields in a calendar and zone (uses extendedYear, month, isLeapMonth, day and
/// the time fields). `strict` rejects out-of-range fields instead of rolling them over.
double alm_calendar_millis(const char *locale, const uint16_t *zone, int32_t zoneLength,
                           const AlmCalendarFields *fields, int strict, int32_t *status);

// MARK: Time zones

/// Canonical IANA id for an id or alias ("Asia/Taipei", "ROC" -> "Asia/Taipei");
/// `isSystem` says whether it is a known zone rather than a custom "GMT+08:00" id.
int32_t alm_tz_canonical(const uint16_t *zone, int32_t length, uint16_t *out, int32_t capacity,
                         int *isSystem, int32_t *status);
/// Windows zone name -> IANA id for a region ("001" = the zone's default); 0 length when unknown.
int32_t alm_tz_from_windows(const uint16_t *windowsName, int32_t length, const char *region,
                            uint16_t *out, int32_t capacity, int32_t *status);
/// IANA id -> Windows zone name; 0 length when none.
int32_t alm_tz_to_windows(const uint16_t *zone, int32_t length, uint16_t *out, int32_t capacity,
                          int32_t *status);
/// Raw (standard) and daylight-saving offsets in milliseconds at an instant.
int alm_tz_offsets(const uint16_t *zone, int32_t length, double millis, int32_t *rawOffset,
                   int32_t *dstOffset, int32_t *status);
/// The instant of a wall-clock time in a zone. `skipped` and `repeated` are policies for times in
/// a DST gap / overlap: 0 = the earlier offset's reading, 1 = the later offset's reading,
/// 2 (skipped only) = the first valid time after the gap.
double alm_tz_wall_to_millis(const uint16_t *zone, int32_t length, int32_t year, int32_t month,
                             int32_t day, int32_t hour, int32_t minute, int32_t second,
                             int32_t millisecond, int32_t skipped, int32_t repeated, int32_t *status);
/// The next transition strictly after `millis` (returns 0 and sets *found = 0 when there is none).
double alm_tz_next_transition(const uint16_t *zone, int32_t length, double millis, int *found,
                              int32_t *status);
/// Localized zone name; style 0 = long standard, 1 = long daylight, 2 = short standard.
int32_t alm_tz_display_name(const uint16_t *zone, int32_t length, const char *locale, int32_t style,
                            uint16_t *out, int32_t capacity, int32_t *status);

typedef struct AlmStringList AlmStringList;
/// All canonical system zones (IANA ids).
AlmStringList *alm_tz_all(int32_t *status);
/// The next string of a list as UTF-16 (NULL at the end); valid until the next call.
const uint16_t *alm_list_next(AlmStringList *list, int32_t *length, int32_t *status);
void alm_list_close(AlmStringList *list);

// MARK: Numbers

typedef struct AlmNumberFormat AlmNumberFormat;

/// A formatter for an ICU number skeleton ("currency/TWD precision-currency-cash").
/// Immutable and safe to share between threads.
AlmNumberFormat *alm_number_open(const char *locale, const uint16_t *skeleton, int32_t length,
                                 int32_t *status);
void alm_number_close(AlmNumberFormat *format);
/// Formats a decimal number given as ASCII ("-1234567.5", "1E3"), exactly (no binary floating point).
/// `symbolStart`/`symbolLimit` receive the UTF-16 span of the currency symbol (-1 when none), so a
/// caller can substitute an explicit symbol.
int32_t alm_number_format_decimal(const AlmNumberFormat *format, const char *number, int32_t numberLength,
                                  uint16_t *out, int32_t capacity, int32_t *symbolStart,
                                  int32_t *symbolLimit, int32_t *status);
/// Formats a double.
int32_t alm_number_format_double(const AlmNumberFormat *format, double number, uint16_t *out,
                                 int32_t capacity, int32_t *status);

typedef struct AlmNumberParser AlmNumberParser;
/// A parser for numbers (style 0), currency amounts (1) or percentages (2) in a locale.
AlmNumberParser *alm_number_parser_open(const char *locale, int32_t style, int32_t *status);
void alm_number_parser_close(AlmNumberParser *parser);
/// Parses into an exact decimal string written to `out` (ASCII); `position` returns where parsing
/// stopped. `currency` (4 UTF-16 units, NUL-terminated) receives the ISO code when style is 1.
int32_t alm_number_parse(AlmNumberParser *parser, const uint16_t *text, int32_t length, int32_t *position,
                         char *out, int32_t capacity, uint16_t *currency, int32_t *status);

// MARK: Currencies
//
// An ISO code is three UTF-16 units given with their length (no terminator needed); any other
// length fails with U_ILLEGAL_ARGUMENT_ERROR.

/// Digits of a currency in standard use (0) or cash use (1): TWD -> 2 / 0.
int32_t alm_currency_digits(const uint16_t *isoCode, int32_t length, int32_t usage, int32_t *status);
/// Whether an ISO 4217 code names a currency ICU knows (BTC does not).
int32_t alm_currency_is_available(const uint16_t *isoCode, int32_t length, int32_t *status);
/// The currency's symbol in a locale; style 0 = symbol, 1 = narrow symbol, 2 = display name.
int32_t alm_currency_name(const uint16_t *isoCode, int32_t codeLength, const char *locale, int32_t style,
                          uint16_t *out, int32_t capacity, int32_t *status);

// MARK: Relative days and plurals

typedef struct AlmRelativeFormat AlmRelativeFormat;
/// width: 0 long, 1 short, 2 narrow.
AlmRelativeFormat *alm_relative_open(const char *locale, int32_t width, int32_t *status);
void alm_relative_close(AlmRelativeFormat *format);
/// unit: 0 second, 1 minute, 2 hour, 3 day, 4 week, 5 month, 6 year. `numeric` forces "in 1 day"
/// instead of "tomorrow".
int32_t alm_relative_format(const AlmRelativeFormat *format, double offset, int32_t unit, int numeric,
                            uint16_t *out, int32_t capacity, int32_t *status);

typedef struct AlmPluralRules AlmPluralRules;
/// type: 0 cardinal, 1 ordinal.
AlmPluralRules *alm_plural_open(const char *locale, int32_t type, int32_t *status);
void alm_plural_close(AlmPluralRules *rules);
/// The CLDR category ("one", "other", ...) for a decimal given as ASCII ("1", "1.0", "2.50");
/// visible fraction digits matter ("1.0" is "other" in English).
int32_t alm_plural_select_decimal(const AlmPluralRules *rules, const char *number, int32_t numberLength,
                                  uint16_t *out, int32_t capacity, int32_t *status);
/// The categories a locale uses.
AlmStringList *alm_plural_keywords(const AlmPluralRules *rules, int32_t *status);

// MARK: Transliteration

typedef struct AlmTransliterator AlmTransliterator;
/// An ICU transform by id ("Hans-Hant", "Hant-Hans", "Han-Latin").
AlmTransliterator *alm_translit_open(const uint16_t *id, int32_t length, int32_t *status);
void alm_translit_close(AlmTransliterator *trans);
/// Transforms `text` in place; returns the new length (may exceed capacity: retry).
int32_t alm_translit_apply(const AlmTransliterator *trans, uint16_t *text, int32_t length,
                           int32_t capacity, int32_t *status);

// MARK: Word boundaries

typedef struct AlmWordBreaker AlmWordBreaker;
/// ICU's word break iterator for a locale; for Chinese it segments by ICU's dictionary.
AlmWordBreaker *alm_words_open(const char *locale, int32_t *status);
void alm_words_close(AlmWordBreaker *breaker);
/// Writes the word boundaries of `text` (UTF-16 offsets, 0 and `length` included) into `out`;
/// returns how many there are (may exceed capacity: retry with a larger buffer).
int32_t alm_words_boundaries(AlmWordBreaker *breaker, const uint16_t *text, int32_t length, int32_t *out,
                             int32_t capacity, int32_t *status);

// MARK: Collation

typedef struct AlmCollator AlmCollator;
/// A collator for a locale ("zh@collation=pinyin", "zh_TW" = stroke order).
AlmCollator *alm_collator_open(const char *locale, int32_t *status);
void alm_collator_close(AlmCollator *collator);
/// -1, 0 or 1.
int32_t alm_collator_compare(const AlmCollator *collator, const uint16_t *a, int32_t aLength,
                             const uint16_t *b, int32_t bLength);
/// A byte string whose memcmp order equals the collation order; returns the length needed.
int32_t alm_collator_sort_key(const AlmCollator *collator, const uint16_t *text, int32_t length,
                              uint8_t *out, int32_t capacity);

// MARK: Charsets

/// ICU's canonical name for a charset alias ("big5-hkscs", "cp936") or NULL when unknown.
const char *alm_charset_canonical(const char *name, int32_t *status);

typedef struct AlmConverter AlmConverter;
/// A converter that stops at the first invalid or unmappable sequence (no silent substitution).
AlmConverter *alm_charset_open(const char *name, int32_t *status);
void alm_charset_close(AlmConverter *converter);
/// Decodes bytes into UTF-16. On an invalid sequence the status is a failure and `errorOffset`
/// holds the byte offset of the sequence; `consumed` is how many input bytes were used.
/// Call repeatedly with `flush` on the last chunk; returns UTF-16 units written.
int32_t alm_charset_decode(AlmConverter *converter, const uint8_t *input, int32_t length, int flush,
                           uint16_t *out, int32_t capacity, int32_t *consumed, int64_t *errorOffset,
                           int32_t *status);
/// Encodes UTF-16 into the charset. On an unmappable character `errorOffset` is its UTF-16 index.
int32_t alm_charset_encode(AlmConverter *converter, const uint16_t *input, int32_t length, int flush,
                           uint8_t *out, int32_t capacity, int32_t *consumed, int64_t *errorOffset,
                           int32_t *status);
void alm_charset_reset(AlmConverter *converter);

/// ICU's own charset guesses for a byte prefix, best first: name and confidence (0-100).
typedef struct AlmCharsetMatch {
    char name[48];
    int32_t confidence;
} AlmCharsetMatch;
int32_t alm_charset_detect(const uint8_t *input, int32_t length, AlmCharsetMatch *matches, int32_t capacity,
                           int32_t *status);

#ifdef __cplusplus
}
#endif

#endif
