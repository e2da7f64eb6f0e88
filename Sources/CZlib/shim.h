// zlib: raw DEFLATE in both directions and CRC-32, for the zip container of XLSX workbooks (the
// default; the ISAL trait puts ISA-L in its place). On every Linux machine that builds Swift
// (zlib1g-dev is among the toolchain's prerequisites) and in the macOS SDK. Plain C types, no
// clash with Foundation. Only AlmanacZip imports it.
#if !__has_include(<zlib.h>)
#error "Almanac needs zlib's header (zlib.h) to read and write zip files (XLSX). On Debian or Ubuntu: apt install zlib1g-dev. Then build again."
#endif
#include <zlib.h>

/// Raw DEFLATE (no zlib or gzip wrapper: a window of 2^15 given as -15), memory level 8 (zlib's
/// default), the default strategy. zlib's init functions are macros Swift cannot import.
static inline int almanac_zlib_deflate_init(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
}

/// Raw DEFLATE inflating, with the largest window (any zip entry's).
static inline int almanac_zlib_inflate_init(z_streamp stream) {
    return inflateInit2(stream, -MAX_WBITS);
}
