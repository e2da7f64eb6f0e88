// zlib's own header: plain C types, no clash with Foundation (unlike ICU's and libxml2's).
#include <zlib.h>
