#ifndef ALMANAC_VERSION_H
#define ALMANAC_VERSION_H

/// The version this build of Almanac is: the release's git tag, which Scripts/release.sh and the
/// Homebrew formula pass to the compiler (`-Xcc -DALMANAC_VERSION=\"1.2.0\"`); a build made
/// without it (`swift build` in a clone) is "0.0.0-dev", below every release.
const char *almanac_version(void);

#endif
