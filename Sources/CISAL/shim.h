// ISA-L's igzip (Intel's Intelligent Storage Acceleration Library): streaming DEFLATE, several
// times faster than zlib's fastest level and a little smaller, inflating about twice as fast, and
// CRC-32. Plain C types, no clash with Foundation. Only AlmanacZip imports it.
#if !__has_include(<isa-l/igzip_lib.h>)
#error "Almanac needs ISA-L (libisal) to read and write zip files (XLSX) and pkg-config did not find it. On Debian or Ubuntu: apt install libisal-dev. On macOS: brew install isa-l. Then build again."
#endif
#include <isa-l/igzip_lib.h>
#include <isa-l/crc.h>

/// The working buffer a compression level needs (ISA-L's defaults; none for level 0). The
/// header gives them as macros Swift cannot import.
static inline uint32_t almanac_isal_level_buffer_size(uint32_t level) {
    switch (level) {
    case 1: return ISAL_DEF_LVL1_DEFAULT;
    case 2: return ISAL_DEF_LVL2_DEFAULT;
    case 3: return ISAL_DEF_LVL3_DEFAULT;
    default: return 0;
    }
}
