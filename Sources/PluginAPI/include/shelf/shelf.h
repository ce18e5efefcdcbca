/* shelf plugin ABI: everything at once. See plugin.h for the rules that hold for every call. */
#ifndef SHELF_SHELF_H
#define SHELF_SHELF_H
#include "plugin.h"
#include "format.h"
#include "audio.h"
#include "http.h"
#include "credentials.h"
#include "readinglist.h"
#include "files.h"
#include "speech.h"
#endif /* SHELF_SHELF_H */
