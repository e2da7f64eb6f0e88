#include "require_icu.h"
#include <unicode/uloc.h>
#include <unicode/ures.h>
#include "internal.h"

int32_t alm_locale_canonical(const char *locale, char *out, int32_t capacity, int32_t *status) {
    UErrorCode *err = (UErrorCode *)status;
    // BCP 47 tags ("zh-Hant-TW", "zh-TW-u-ca-roc") and ICU ids ("zh_TW@calendar=roc") both work.
    char icu[ULOC_FULLNAME_CAPACITY];
    int32_t parsed = 0;
    uloc_forLanguageTag(locale, icu, (int32_t)sizeof(icu), &parsed, err);
    if (U_FAILURE(*err) || parsed == 0 || locale[parsed] != '\0') {
        *err = U_ZERO_ERROR;
        return uloc_canonicalize(locale, out, capacity, err);
    }
    return uloc_canonicalize(icu, out, capacity, err);
}

int32_t alm_locale_maximize(const char *locale, char *out, int32_t capacity, int32_t *status) {
    return uloc_addLikelySubtags(locale, out, capacity, (UErrorCode *)status);
}

int32_t alm_locale_to_bcp47(const char *locale, char *out, int32_t capacity, int32_t *status) {
    return uloc_toLanguageTag(locale, out, capacity, 0, (UErrorCode *)status);
}

int32_t alm_locale_display_name(const char *locale, const char *displayLocale, uint16_t *out,
                                int32_t capacity, int32_t *status) {
    return uloc_getDisplayName(locale, displayLocale, (UChar *)out, capacity, (UErrorCode *)status);
}

int alm_locale_is_known(const char *locale) {
    // A locale is "known" when ICU's locale data has a bundle for it or for its language;
    // U_USING_DEFAULT_WARNING means ICU fell back to root.
    UErrorCode status = U_ZERO_ERROR;
    UResourceBundle *bundle = ures_open(NULL, locale, &status);
    int known = U_SUCCESS(status) && status != U_USING_DEFAULT_WARNING;
    if (bundle) ures_close(bundle);
    return known;
}

int32_t alm_locale_count_available(void) {
    return uloc_countAvailable();
}

const char *alm_locale_available(int32_t index) {
    return uloc_getAvailable(index);
}
