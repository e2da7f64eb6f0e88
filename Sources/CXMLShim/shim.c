#include "CXMLShim.h"
