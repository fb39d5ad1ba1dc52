// FreeType's glyph loading and outline rasterizer (Debian: libfreetype-dev, on the machine image).
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
