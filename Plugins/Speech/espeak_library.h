/* The calls of libespeak-ng the speech plugin makes, through a table filled when the library is opened. */
#ifndef SHELF_SPEECH_ESPEAK_LIBRARY_H
#define SHELF_SPEECH_ESPEAK_LIBRARY_H

#include <espeak-ng/speak_lib.h>

struct speech_espeak {
    int (*Initialize)(espeak_AUDIO_OUTPUT, int, const char *, int);
    void (*SetSynthCallback)(t_espeak_callback *);
    espeak_ERROR (*Synth)(const void *, size_t, unsigned int, espeak_POSITION_TYPE, unsigned int, unsigned int,
                          unsigned int *, void *);
    espeak_ERROR (*Synchronize)(void);
    espeak_ERROR (*SetVoiceByName)(const char *);
    espeak_ERROR (*SetVoiceByProperties)(espeak_VOICE *);
    espeak_ERROR (*SetParameter)(espeak_PARAMETER, int, int);
    const espeak_VOICE **(*ListVoices)(espeak_VOICE *);
};

extern struct speech_espeak espeak;

/* NULL once the library is open and every call found, else why not (and which package brings it). */
const char *speech_espeak_load(void);

#endif
