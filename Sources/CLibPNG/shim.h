// libpng's simplified API (png_image_*), enough to write and read RGBA images in memory.
#include <png.h>
