// Flags-only module: CICUShim's C files include ICU's headers themselves.
#include <unicode/utypes.h>
