/* The libraries a plugin links that lie outside the folders every child reads (a vendor's folder named by its run
 * path): resolved here, by shelf, before anything of the plugin runs, and made readable one file each. The run path
 * itself widens nothing: a plugin linked with -Wl,-rpath,/ once had the whole disk made readable. Only a file that
 * is a 64-bit ELF shared object, named by a DT_NEEDED entry and found in a DT_RUNPATH (or the older DT_RPATH)
 * folder ($ORIGIN put in), is added, and its own needs are followed the same way. A library named with a '/' or not
 * found there is left to the loader: either it is in the system's or the runtime's folders, readable anyway, or the
 * loader fails to find it and says so. Read from the file's section headers; anything unexpected names nothing. */
#define _GNU_SOURCE
#include "sandbox.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX_NEEDED 64
#define MAX_LIBRARIES 64

typedef struct dependencies {
    char runpath[4096];             /* ':'-separated, $ORIGIN already put in */
    char needed[MAX_NEEDED][256];
    int count;
} dependencies;

/* Whether `path` is a 64-bit ELF shared object; fills `d` with its run path and needed libraries. */
static int read_dependencies(const char *path, dependencies *d)
{
    Elf64_Ehdr header;
    Elf64_Shdr *sections = NULL;
    FILE *f = fopen(path, "rb");
    int ok = 0;
    size_t i;
    memset(d, 0, sizeof *d);
    if (f == NULL) return 0;
    if (fread(&header, sizeof header, 1, f) != 1 || memcmp(header.e_ident, ELFMAG, SELFMAG) != 0
        || header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_type != ET_DYN || header.e_shentsize != sizeof(Elf64_Shdr)
        || header.e_shnum == 0 || header.e_shnum > 4096) {
        fclose(f);
        return 0;
    }
    ok = 1;
    sections = calloc(header.e_shnum, sizeof *sections);
    if (sections == NULL || fseek(f, (long)header.e_shoff, SEEK_SET) != 0
        || fread(sections, sizeof *sections, header.e_shnum, f) != header.e_shnum) {
        free(sections);
        fclose(f);
        return ok;
    }
    for (i = 0; i < header.e_shnum; i++) {
        Elf64_Shdr *dynamic = &sections[i], *strings;
        Elf64_Dyn entry;
        size_t n;
        if (dynamic->sh_type != SHT_DYNAMIC || dynamic->sh_link >= header.e_shnum) continue;
        strings = &sections[dynamic->sh_link];
        for (n = 0; n < dynamic->sh_size / sizeof entry && n < 4096; n++) {
            char text[4096];
            size_t got;
            if (fseek(f, (long)(dynamic->sh_offset + n * sizeof entry), SEEK_SET) != 0 || fread(&entry, sizeof entry, 1, f) != 1) break;
            if (entry.d_tag == DT_NULL) break;
            if ((entry.d_tag != DT_RUNPATH && entry.d_tag != DT_RPATH && entry.d_tag != DT_NEEDED)
                || entry.d_un.d_val >= strings->sh_size) continue;
            if (fseek(f, (long)(strings->sh_offset + entry.d_un.d_val), SEEK_SET) != 0) break;
            got = fread(text, 1, sizeof text - 1, f);
            text[got] = 0;
            if (entry.d_tag == DT_NEEDED) {
                if (d->count < MAX_NEEDED) snprintf(d->needed[d->count++], sizeof d->needed[0], "%s", text);
            } else {
                size_t used = strlen(d->runpath);
                snprintf(d->runpath + used, sizeof d->runpath - used, "%s%s", used ? ":" : "", text);
            }
        }
    }
    free(sections);
    fclose(f);
    return ok;
}

/* `folder` of the run path with $ORIGIN (the folder of the object naming it) put in. */
static void expand(const char *folder, const char *object, char *out, size_t size)
{
    const char *slash = strrchr(object, '/');
    int origin = slash ? (int)(slash - object) : 0;
    if (strncmp(folder, "$ORIGIN", 7) == 0) snprintf(out, size, "%.*s%s", origin, object, folder + 7);
    else if (strncmp(folder, "${ORIGIN}", 9) == 0) snprintf(out, size, "%.*s%s", origin, object, folder + 9);
    else snprintf(out, size, "%s", folder);
}

static int listed(const char *list, const char *path)
{
    size_t n = strlen(path);
    const char *at = list;
    while ((at = strstr(at, path)) != NULL) {
        if ((at == list || at[-1] == '\n') && at[n] == '\n') return 1;
        at += n;
    }
    return 0;
}

/* Adds the libraries `object` needs from its run path to `out`, then theirs. */
static void follow(const char *object, char *out, size_t size, int depth)
{
    dependencies d;
    int i;
    if (depth > 8 || !read_dependencies(object, &d)) return;
    for (i = 0; i < d.count; i++) {
        char *copy, *folder, *rest;
        if (strchr(d.needed[i], '/') != NULL) continue;
        copy = strdup(d.runpath);
        for (folder = strtok_r(copy, ":", &rest); folder; folder = strtok_r(NULL, ":", &rest)) {
            char where[4096], candidate[4400], resolved[4096];
            dependencies unused;
            size_t used = strlen(out);
            expand(folder, object, where, sizeof where);
            snprintf(candidate, sizeof candidate, "%s/%s", where, d.needed[i]);
            if (access(candidate, R_OK) != 0 || realpath(candidate, resolved) == NULL) continue;
            /* The first folder that has it is where the loader finds it; it must be a shared object. */
            if (read_dependencies(resolved, &unused) && !listed(out, resolved) && used + strlen(resolved) + 2 < size) {
                snprintf(out + used, size - used, "%s\n", resolved);
                follow(resolved, out, size, depth + 1);
            }
            break;
        }
        free(copy);
    }
}

void plugin_libraries(const char *plugin, char *out, size_t size)
{
    out[0] = 0;
    follow(plugin, out, size, 0);
}
