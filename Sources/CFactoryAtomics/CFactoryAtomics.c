// Every operation is inline in the header; SwiftPM needs one source file per C target.
#include "CFactoryAtomics.h"
