#include "require_icu.h"
#include <stdlib.h>
#include <string.h>
#include <unicode/utrans.h>
#include <unicode/ucol.h>
#include <unicode/ucnv.h>
#include <unicode/ucsdet.h>
#include <unicode/ubrk.h>
#include "internal.h"

// MARK: Transliteration

AlmTransliterator *alm_translit_open(const uint16_t *id, int32_t length, int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    UParseError parseError;
    UTransliterator *trans = utrans_openU((const UChar *)id, length, UTRANS_FORWARD, NULL, 0, &parseError, err);
    if (U_FAILURE(*err)) {
        if (trans) utrans_close(trans);
        return NULL;
    }
    return (AlmTransliterator *)trans;
}

void alm_translit_close(AlmTransliterator *trans) {
    if (trans) utrans_close((UTransliterator *)trans);
}

int32_t alm_translit_apply(const AlmTransliterator *trans, uint16_t *text, int32_t length, int32_t capacity,
                           int32_t *status) {
    int32_t textLength = length;
    int32_t limit = length;
    utrans_transUChars((const UTransliterator *)trans, (UChar *)text, &textLength, capacity, 0, &limit,
                       (UErrorCode *)status);
    return textLength;
}

// MARK: Word boundaries

AlmWordBreaker *alm_words_open(const char *locale, int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    UBreakIterator *breaker = ubrk_open(UBRK_WORD, locale, NULL, 0, err);
    if (U_FAILURE(*err)) {
        if (breaker) ubrk_close(breaker);
        return NULL;
    }
    return (AlmWordBreaker *)breaker;
}

void alm_words_close(AlmWordBreaker *breaker) {
    if (breaker) ubrk_close((UBreakIterator *)breaker);
}

int32_t alm_words_boundaries(AlmWordBreaker *breaker, const uint16_t *text, int32_t length, int32_t *out,
                             int32_t capacity, int32_t *status) {
    UBreakIterator *iterator = (UBreakIterator *)breaker;
    ubrk_setText(iterator, (const UChar *)text, length, (UErrorCode *)status);
    if (U_FAILURE(*(UErrorCode *)status)) return 0;
    int32_t count = 0;
    for (int32_t boundary = ubrk_first(iterator); boundary != UBRK_DONE; boundary = ubrk_next(iterator)) {
        if (count < capacity) out[count] = boundary;
        count++;
    }
    // The iterator keeps no pointer into text past this call.
    static const UChar empty[1] = {0};
    UErrorCode ignored = U_ZERO_ERROR;
    ubrk_setText(iterator, empty, 0, &ignored);
    return count;
}

// MARK: Collation

AlmCollator *alm_collator_open(const char *locale, int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    UCollator *collator = ucol_open(locale, err);
    if (U_FAILURE(*err)) {
        if (collator) ucol_close(collator);
        return NULL;
    }
    return (AlmCollator *)collator;
}

void alm_collator_close(AlmCollator *collator) {
    if (collator) ucol_close((UCollator *)collator);
}

int32_t alm_collator_compare(const AlmCollator *collator, const uint16_t *a, int32_t aLength, const uint16_t *b,
                             int32_t bLength) {
    return (int32_t)ucol_strcoll((const UCollator *)collator, (const UChar *)a, aLength, (const UChar *)b, bLength);
}

int32_t alm_collator_sort_key(const AlmCollator *collator, const uint16_t *text, int32_t length, uint8_t *out,
                              int32_t capacity) {
    return ucol_getSortKey((const UCollator *)collator, (const UChar *)text, length, out, capacity);
}

// MARK: Charsets

const char *alm_charset_canonical(const char *name, int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    const char *canonical = ucnv_getAlias(name, 0, err);
    if (U_FAILURE(*err)) return NULL;
    return canonical;
}

struct AlmConverter {
    UConverter *converter;
    int64_t position;  // input units consumed by earlier calls, for error offsets
};

AlmConverter *alm_charset_open(const char *name, int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    UConverter *converter = ucnv_open(name, err);
    if (U_FAILURE(*err)) {
        if (converter) ucnv_close(converter);
        return NULL;
    }
    // Stop at the first invalid or unmappable sequence: a silent U+FFFD or '?' loses data.
    ucnv_setToUCallBack(converter, UCNV_TO_U_CALLBACK_STOP, NULL, NULL, NULL, err);
    ucnv_setFromUCallBack(converter, UCNV_FROM_U_CALLBACK_STOP, NULL, NULL, NULL, err);
    AlmConverter *result = (AlmConverter *)malloc(sizeof(AlmConverter));
    if (U_FAILURE(*err) || !result) {
        if (U_SUCCESS(*err)) *err = U_MEMORY_ALLOCATION_ERROR;
        ucnv_close(converter);
        free(result);
        return NULL;
    }
    result->converter = converter;
    result->position = 0;
    return result;
}

void alm_charset_close(AlmConverter *converter) {
    if (!converter) return;
    ucnv_close(converter->converter);
    free(converter);
}

void alm_charset_reset(AlmConverter *converter) {
    ucnv_reset(converter->converter);
    converter->position = 0;
}

static int is_conversion_error(UErrorCode status) {
    return status == U_INVALID_CHAR_FOUND || status == U_ILLEGAL_CHAR_FOUND || status == U_TRUNCATED_CHAR_FOUND ||
           status == U_ILLEGAL_ESCAPE_SEQUENCE || status == U_UNSUPPORTED_ESCAPE_SEQUENCE;
}

int32_t alm_charset_decode(AlmConverter *converter, const uint8_t *input, int32_t length, int flush, uint16_t *out,
                           int32_t capacity, int32_t *consumed, int64_t *errorOffset, int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    const char *source = (const char *)input;
    const char *sourceLimit = source + length;
    UChar *target = (UChar *)out;
    ucnv_toUnicode(converter->converter, &target, (UChar *)out + capacity, &source, sourceLimit, NULL,
                   (UBool)flush, err);
    *consumed = (int32_t)(source - (const char *)input);
    *errorOffset = -1;
    if (is_conversion_error(*err)) {
        char invalid[32];
        int8_t invalidLength = (int8_t)sizeof(invalid);
        UErrorCode ignored = U_ZERO_ERROR;
        ucnv_getInvalidChars(converter->converter, invalid, &invalidLength, &ignored);
        *errorOffset = converter->position + *consumed - (U_SUCCESS(ignored) ? invalidLength : 0);
    }
    converter->position += *consumed;
    return (int32_t)(target - (UChar *)out);
}

int32_t alm_charset_encode(AlmConverter *converter, const uint16_t *input, int32_t length, int flush, uint8_t *out,
                           int32_t capacity, int32_t *consumed, int64_t *errorOffset, int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    const UChar *source = (const UChar *)input;
    const UChar *sourceLimit = source + length;
    char *target = (char *)out;
    ucnv_fromUnicode(converter->converter, &target, (char *)out + capacity, &source, sourceLimit, NULL, (UBool)flush,
                     err);
    *consumed = (int32_t)(source - (const UChar *)input);
    *errorOffset = -1;
    if (is_conversion_error(*err)) {
        UChar invalid[8];
        int8_t invalidLength = (int8_t)(sizeof(invalid) / sizeof(UChar));
        UErrorCode ignored = U_ZERO_ERROR;
        ucnv_getInvalidUChars(converter->converter, invalid, &invalidLength, &ignored);
        *errorOffset = converter->position + *consumed - (U_SUCCESS(ignored) ? invalidLength : 0);
    }
    converter->position += *consumed;
    return (int32_t)(target - (char *)out);
}

int32_t alm_charset_detect(const uint8_t *input, int32_t length, AlmCharsetMatch *matches, int32_t capacity,
                           int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    UCharsetDetector *detector = ucsdet_open(err);
    if (U_FAILURE(*err)) return 0;
    ucsdet_setText(detector, (const char *)input, length, err);
    int32_t found = 0;
    const UCharsetMatch **all = ucsdet_detectAll(detector, &found, err);
    int32_t written = 0;
    for (int32_t i = 0; U_SUCCESS(*err) && i < found && written < capacity; i++) {
        const char *name = ucsdet_getName(all[i], err);
        if (!name) continue;
        strncpy(matches[written].name, name, sizeof(matches[written].name) - 1);
        matches[written].name[sizeof(matches[written].name) - 1] = 0;
        matches[written].confidence = ucsdet_getConfidence(all[i], err);
        written++;
    }
    ucsdet_close(detector);
    return written;
}
