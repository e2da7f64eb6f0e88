#include "almanac_version.h"

#ifndef ALMANAC_VERSION
#define ALMANAC_VERSION "0.0.0-dev"
#endif

const char *almanac_version(void) { return ALMANAC_VERSION; }
