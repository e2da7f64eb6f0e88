// Flags-only module: CXMLShim's C files include libxml2's headers themselves.
#include <libxml/xmlversion.h>
