/* libespeak-ng, opened on first use (CLazyLibrary) rather than linked: without it the plugin still loads, and
 * its `init` refuses with the reason and the Debian package to install, which `shelf plugins` shows. */
#include "espeak_library.h"

#include "CLazyLibrary.h"

struct speech_espeak espeak;

static const struct shelf_lazy_symbol symbols[] = {
    { (void **)&espeak.Initialize, "espeak_Initialize" },
    { (void **)&espeak.SetSynthCallback, "espeak_SetSynthCallback" },
    { (void **)&espeak.Synth, "espeak_Synth" },
    { (void **)&espeak.Synchronize, "espeak_Synchronize" },
    { (void **)&espeak.SetVoiceByName, "espeak_SetVoiceByName" },
    { (void **)&espeak.SetVoiceByProperties, "espeak_SetVoiceByProperties" },
    { (void **)&espeak.SetParameter, "espeak_SetParameter" },
    { (void **)&espeak.ListVoices, "espeak_ListVoices" },
};

static struct shelf_lazy_library library = {
    .sonames = { "libespeak-ng.so.1" }, .what = "libespeak-ng", .needs = "libespeak-ng 1.49 or newer",
    .package = "libespeak-ng1", .symbols = symbols, .symbol_count = sizeof symbols / sizeof *symbols,
    .lock = PTHREAD_MUTEX_INITIALIZER,
};

const char *speech_espeak_load(void) { return shelf_lazy_load(&library); }
