/* libxml2 for Swift. Debian builds libxml2 with ICU, and its encoding.h then includes ICU headers
 * that clash with the copy of ICU inside swift-foundation. shelf never touches ICU converters, so
 * the ICU part of libxml2's headers is switched off here; only pointers to the affected struct
 * (xmlCharEncodingHandler) are ever used, so its layout does not matter to us. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <libxml/HTMLparser.h>
