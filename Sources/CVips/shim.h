#ifndef PLEIN_CVIPS_H
#define PLEIN_CVIPS_H
#include <vips/vips.h>
#endif
