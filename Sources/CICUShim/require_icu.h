// Included first by every file of the shim: without ICU's headers the build stops here and says
// what to do, instead of at "'unicode/uloc.h' file not found".
#ifndef ALMANAC_REQUIRE_ICU_H
#define ALMANAC_REQUIRE_ICU_H
#if !__has_include(<unicode/uversion.h>) || !__has_include(<unicode/unumberformatter.h>)
#error "Almanac needs ICU (libicu) and pkg-config did not find it. On macOS: brew install icu4c libxml2 isa-l pkg-config, then export PKG_CONFIG_PATH=\"$(brew --prefix icu4c)/lib/pkgconfig:$(brew --prefix libxml2)/lib/pkgconfig\" and build again (README: Plugins, on a Mac). On Debian or Ubuntu: apt install pkg-config libicu-dev libxml2-dev libisal-dev. (The StringAccessors plugin needs none of this; this is the almanac tool or a library.)"
#endif
#endif
