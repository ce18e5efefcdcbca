/* The folders a plugin names for its own libraries (DT_RUNPATH, or the older DT_RPATH, with $ORIGIN put in): the
 * sandbox lets the plugin read them, since its libraries are part of it. Read from the file's section headers
 * before anything of the plugin is loaded; a file that is not a 64-bit ELF names none (dlopen then says why). */
#define _GNU_SOURCE
#include "sandbox.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>

static void append_folders(const char *runpath, const char *origin, char *out, size_t size)
{
    char *copy = strdup(runpath), *item, *rest;
    for (item = strtok_r(copy, ":", &rest); item; item = strtok_r(NULL, ":", &rest)) {
        size_t used = strlen(out);
        if (strncmp(item, "$ORIGIN", 7) == 0) snprintf(out + used, size - used, "%s%s\n", origin, item + 7);
        else if (strncmp(item, "${ORIGIN}", 9) == 0) snprintf(out + used, size - used, "%s%s\n", origin, item + 9);
        else snprintf(out + used, size - used, "%s\n", item);
    }
    free(copy);
}

void runpath_folders(const char *plugin, char *out, size_t size)
{
    Elf64_Ehdr header;
    Elf64_Shdr *sections = NULL;
    char origin[4096];
    const char *slash = strrchr(plugin, '/');
    FILE *f = fopen(plugin, "rb");
    size_t i;
    out[0] = 0;
    snprintf(origin, sizeof origin, "%.*s", slash ? (int)(slash - plugin) : 1, slash ? plugin : ".");
    if (f == NULL) return;
    if (fread(&header, sizeof header, 1, f) != 1 || memcmp(header.e_ident, ELFMAG, SELFMAG) != 0
        || header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_shentsize != sizeof(Elf64_Shdr) || header.e_shnum == 0
        || header.e_shnum > 4096) {
        fclose(f);
        return;
    }
    sections = calloc(header.e_shnum, sizeof *sections);
    if (sections == NULL || fseek(f, (long)header.e_shoff, SEEK_SET) != 0
        || fread(sections, sizeof *sections, header.e_shnum, f) != header.e_shnum) {
        free(sections);
        fclose(f);
        return;
    }
    for (i = 0; i < header.e_shnum; i++) {
        Elf64_Shdr *dynamic = &sections[i], *strings;
        Elf64_Dyn entry;
        size_t n;
        if (dynamic->sh_type != SHT_DYNAMIC || dynamic->sh_link >= header.e_shnum) continue;
        strings = &sections[dynamic->sh_link];
        for (n = 0; n < dynamic->sh_size / sizeof entry && n < 4096; n++) {
            char runpath[4096];
            size_t got;
            if (fseek(f, (long)(dynamic->sh_offset + n * sizeof entry), SEEK_SET) != 0 || fread(&entry, sizeof entry, 1, f) != 1) break;
            if (entry.d_tag == DT_NULL) break;
            if ((entry.d_tag != DT_RUNPATH && entry.d_tag != DT_RPATH) || entry.d_un.d_val >= strings->sh_size) continue;
            if (fseek(f, (long)(strings->sh_offset + entry.d_un.d_val), SEEK_SET) != 0) break;
            got = fread(runpath, 1, sizeof runpath - 1, f);
            runpath[got] = 0;
            append_folders(runpath, origin, out, size);
        }
    }
    free(sections);
    fclose(f);
}
