#ifndef PLEIN_CMARK_SHIM_H
#define PLEIN_CMARK_SHIM_H
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#endif
