#include "require_icu.h"
#include <stdlib.h>
#include <string.h>
#include <unicode/unumberformatter.h>
#include <unicode/unum.h>
#include <unicode/ucurr.h>
#include <unicode/ureldatefmt.h>
#include <unicode/upluralrules.h>
#include <unicode/uformattedvalue.h>
#include "internal.h"

// MARK: Formatting

AlmNumberFormat *alm_number_open(const char *locale, const uint16_t *skeleton, int32_t length, int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    UParseError parseError;
    UNumberFormatter *formatter =
        unumf_openForSkeletonAndLocaleWithError((const UChar *)skeleton, length, locale, &parseError, err);
    if (U_FAILURE(*err)) {
        if (formatter) unumf_close(formatter);
        return NULL;
    }
    return (AlmNumberFormat *)formatter;
}

void alm_number_close(AlmNumberFormat *format) {
    if (format) unumf_close((UNumberFormatter *)format);
}

int32_t alm_number_format_decimal(const AlmNumberFormat *format, const char *number, int32_t numberLength,
                                  uint16_t *out, int32_t capacity, int32_t *symbolStart, int32_t *symbolLimit,
                                  int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    *symbolStart = -1;
    *symbolLimit = -1;
    UFormattedNumber *result = unumf_openResult(err);
    if (U_FAILURE(*err)) return 0;
    unumf_formatDecimal((const UNumberFormatter *)format, number, numberLength, result, err);
    int32_t length = unumf_resultToString(result, (UChar *)out, capacity, err);
    if (U_SUCCESS(*err) || *err == U_BUFFER_OVERFLOW_ERROR) {
        UErrorCode fieldStatus = U_ZERO_ERROR;
        const UFormattedValue *value = unumf_resultAsValue(result, &fieldStatus);
        UConstrainedFieldPosition *position = ucfpos_open(&fieldStatus);
        ucfpos_constrainField(position, UFIELD_CATEGORY_NUMBER, UNUM_CURRENCY_FIELD, &fieldStatus);
        if (U_SUCCESS(fieldStatus) && ufmtval_nextPosition(value, position, &fieldStatus)) {
            ucfpos_getIndexes(position, symbolStart, symbolLimit, &fieldStatus);
        }
        ucfpos_close(position);
    }
    unumf_closeResult(result);
    return length;
}

int32_t alm_number_format_double(const AlmNumberFormat *format, double number, uint16_t *out, int32_t capacity,
                                 int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    UFormattedNumber *result = unumf_openResult(err);
    if (U_FAILURE(*err)) return 0;
    unumf_formatDouble((const UNumberFormatter *)format, number, result, err);
    int32_t length = unumf_resultToString(result, (UChar *)out, capacity, err);
    unumf_closeResult(result);
    return length;
}

// MARK: Parsing

struct AlmNumberParser {
    UNumberFormat *format;
    int32_t style;
};

AlmNumberParser *alm_number_parser_open(const char *locale, int32_t style, int32_t *status) {
    static const UNumberFormatStyle styles[] = {UNUM_DECIMAL, UNUM_CURRENCY, UNUM_PERCENT};
    UErrorCode *err = (UErrorCode *)status;
    if (style < 0 || style > 2) style = 0;
    UNumberFormat *format = unum_open(styles[style], NULL, 0, locale, NULL, err);
    AlmNumberParser *parser = U_SUCCESS(*err) ? (AlmNumberParser *)malloc(sizeof(AlmNumberParser)) : NULL;
    if (!parser) {
        if (U_SUCCESS(*err)) *err = U_MEMORY_ALLOCATION_ERROR;
        if (format) unum_close(format);
        return NULL;
    }
    unum_setAttribute(format, UNUM_LENIENT_PARSE, 0);
    parser->format = format;
    parser->style = style;
    return parser;
}

void alm_number_parser_close(AlmNumberParser *parser) {
    if (!parser) return;
    unum_close(parser->format);
    free(parser);
}

int32_t alm_number_parse(AlmNumberParser *parser, const uint16_t *text, int32_t length, int32_t *position,
                         char *out, int32_t capacity, uint16_t *currency, int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    *position = 0;
    if (currency) {
        currency[0] = 0;
        if (parser->style == 1) {
            // The ISO code comes from a second, currency-aware parse of the same text.
            UErrorCode currencyStatus = U_ZERO_ERROR;
            int32_t currencyPosition = 0;
            UChar iso[4] = {0};
            unum_parseDoubleCurrency(parser->format, (const UChar *)text, length, &currencyPosition, iso,
                                     &currencyStatus);
            if (U_SUCCESS(currencyStatus)) memcpy(currency, iso, sizeof(iso));
        }
    }
    return unum_parseDecimal(parser->format, (const UChar *)text, length, position, out, capacity, err);
}

// MARK: Currencies

// ICU's ucurr_* functions read an ISO code as a NUL-terminated UChar string (ucurr_isAvailable hashes
// it up to the terminator). Callers pass a pointer and a length, never a terminator, so the code is
// copied into a terminated buffer of its own here; anything but three units is not a code.
static int iso_code(const uint16_t *code, int32_t length, UChar out[4], UErrorCode *err) {
    if (U_FAILURE(*err)) return 0;
    if (code == NULL || length != 3) {
        *err = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    for (int32_t i = 0; i < 3; i++) out[i] = (UChar)code[i];
    out[3] = 0;
    return 1;
}

int32_t alm_currency_digits(const uint16_t *isoCode, int32_t length, int32_t usage, int32_t *status) {
    UChar code[4];
    if (!iso_code(isoCode, length, code, (UErrorCode *)status)) return 0;
    return ucurr_getDefaultFractionDigitsForUsage(code, usage == 1 ? UCURR_USAGE_CASH : UCURR_USAGE_STANDARD,
                                                  (UErrorCode *)status);
}

int32_t alm_currency_is_available(const uint16_t *isoCode, int32_t length, int32_t *status) {
    UChar code[4];
    if (!iso_code(isoCode, length, code, (UErrorCode *)status)) return 0;
    return ucurr_isAvailable(code, -8.64e15, 8.64e15, (UErrorCode *)status) ? 1 : 0;
}

int32_t alm_currency_name(const uint16_t *isoCode, int32_t codeLength, const char *locale, int32_t style,
                          uint16_t *out, int32_t capacity, int32_t *status) {
    static const UCurrNameStyle styles[] = {UCURR_SYMBOL_NAME, UCURR_NARROW_SYMBOL_NAME, UCURR_LONG_NAME};
    UErrorCode *err = (UErrorCode *)status;
    UChar code[4];
    if (!iso_code(isoCode, codeLength, code, err)) return 0;
    UBool isChoiceFormat = 0;
    int32_t length = 0;
    const UChar *name = ucurr_getName(code, locale, styles[style < 0 || style > 2 ? 0 : style],
                                      &isChoiceFormat, &length, err);
    if (U_FAILURE(*err) || !name) return 0;
    return alm_copy_uchars(name, length, out, capacity, err);
}

// MARK: Relative days

AlmRelativeFormat *alm_relative_open(const char *locale, int32_t width, int32_t *status) {
    static const UDateRelativeDateTimeFormatterStyle widths[] = {UDAT_STYLE_LONG, UDAT_STYLE_SHORT,
                                                                 UDAT_STYLE_NARROW};
    UErrorCode *err = (UErrorCode *)status;
    URelativeDateTimeFormatter *format = ureldatefmt_open(
        locale, NULL, widths[width < 0 || width > 2 ? 0 : width], UDISPCTX_CAPITALIZATION_NONE, err);
    if (U_FAILURE(*err)) {
        if (format) ureldatefmt_close(format);
        return NULL;
    }
    return (AlmRelativeFormat *)format;
}

void alm_relative_close(AlmRelativeFormat *format) {
    if (format) ureldatefmt_close((URelativeDateTimeFormatter *)format);
}

int32_t alm_relative_format(const AlmRelativeFormat *format, double offset, int32_t unit, int numeric,
                            uint16_t *out, int32_t capacity, int32_t *status) {
    static const URelativeDateTimeUnit units[] = {UDAT_REL_UNIT_SECOND, UDAT_REL_UNIT_MINUTE, UDAT_REL_UNIT_HOUR,
                                                  UDAT_REL_UNIT_DAY,    UDAT_REL_UNIT_WEEK,   UDAT_REL_UNIT_MONTH,
                                                  UDAT_REL_UNIT_YEAR};
    URelativeDateTimeUnit relativeUnit = units[unit < 0 || unit > 6 ? 3 : unit];
    const URelativeDateTimeFormatter *formatter = (const URelativeDateTimeFormatter *)format;
    if (numeric) {
        return ureldatefmt_formatNumeric(formatter, offset, relativeUnit, (UChar *)out, capacity,
                                         (UErrorCode *)status);
    }
    return ureldatefmt_format(formatter, offset, relativeUnit, (UChar *)out, capacity, (UErrorCode *)status);
}

// MARK: Plurals

AlmPluralRules *alm_plural_open(const char *locale, int32_t type, int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    UPluralRules *rules = uplrules_openForType(locale, type == 1 ? UPLURAL_TYPE_ORDINAL : UPLURAL_TYPE_CARDINAL, err);
    if (U_FAILURE(*err)) {
        if (rules) uplrules_close(rules);
        return NULL;
    }
    return (AlmPluralRules *)rules;
}

void alm_plural_close(AlmPluralRules *rules) {
    if (rules) uplrules_close((UPluralRules *)rules);
}

int32_t alm_plural_select_decimal(const AlmPluralRules *rules, const char *number, int32_t numberLength,
                                  uint16_t *out, int32_t capacity, int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    // Plural operands depend on the visible fraction digits ("1" is one, "1.0" is other in English),
    // so format with exactly as many fraction digits as the input shows.
    int32_t fractionDigits = 0;
    const char *dot = memchr(number, '.', (size_t)numberLength);
    if (dot) {
        const char *end = number + numberLength;
        for (const char *p = dot + 1; p < end && *p >= '0' && *p <= '9'; p++) fractionDigits++;
    }
    if (fractionDigits > 20) fractionDigits = 20;
    UChar skeleton[32] = {0};
    int32_t skeletonLength = 0;
    if (fractionDigits > 0) {
        skeleton[skeletonLength++] = '.';
        for (int32_t i = 0; i < fractionDigits; i++) skeleton[skeletonLength++] = '0';
    } else {
        const char *text = "precision-integer";
        for (; *text; text++) skeleton[skeletonLength++] = (UChar)*text;
    }
    UNumberFormatter *formatter = unumf_openForSkeletonAndLocale(skeleton, skeletonLength, "en", err);
    UFormattedNumber *result = unumf_openResult(err);
    int32_t length = 0;
    if (U_SUCCESS(*err)) {
        unumf_formatDecimal(formatter, number, numberLength, result, err);
        length = uplrules_selectFormatted((const UPluralRules *)rules, result, (UChar *)out, capacity, err);
    }
    if (result) unumf_closeResult(result);
    if (formatter) unumf_close(formatter);
    return length;
}

AlmStringList *alm_plural_keywords(const AlmPluralRules *rules, int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    UEnumeration *keywords = uplrules_getKeywords((const UPluralRules *)rules, err);
    return alm_list_wrap(keywords, err);
}
