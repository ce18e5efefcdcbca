#!/usr/bin/env python3
"""The periodicity measure of issue 20, for time-stretched speech.

Mono, 30 ms frames every 10 ms; the frames whose energy is within 30 dB of the loudest are kept;
the result is the share of those whose normalised autocorrelation r(k) / r(0) peaks above 0.5 at a lag between
1/400 s and 1/60 s (a pitch between 60 and 400 Hz). A stretcher that keeps speech's voicing keeps
this share near the input's; one that smears periods lowers it.

    periodicity.py FILE.wav [FILE.wav ...]    prints "share file" per file
"""
import sys
import wave

import numpy as np


def read_mono(path):
    with wave.open(path, "rb") as w:
        rate, channels, width = w.getframerate(), w.getnchannels(), w.getsampwidth()
        data = w.readframes(w.getnframes())
    if width != 2:
        raise SystemExit(f"{path}: 16-bit WAV expected")
    x = np.frombuffer(data, dtype="<i2").astype(np.float64) / 32768
    return x.reshape(-1, channels).mean(axis=1), rate


def periodicity(x, rate):
    length, hop = int(0.030 * rate), int(0.010 * rate)
    if len(x) < length:
        return 0.0
    count = 1 + (len(x) - length) // hop
    frames = np.lib.stride_tricks.as_strided(x, shape=(count, length), strides=(x.strides[0] * hop, x.strides[0]))
    energy = (frames ** 2).sum(axis=1)
    loud = energy > 0
    db = np.full(count, -np.inf)
    db[loud] = 10 * np.log10(energy[loud])
    kept = frames[db >= db.max() - 30]
    size = 1 << int(np.ceil(np.log2(2 * length)))
    spectrum = np.fft.rfft(kept, size, axis=1)
    r = np.fft.irfft(spectrum * np.conj(spectrum), size, axis=1)[:, :length]
    lags = np.arange(int(rate / 400), int(rate / 60) + 1)
    # Normalised by the frame's energy (r(k) / r(0)), the usual biased estimate.
    norm = r[:, lags] / np.maximum(r[:, :1], 1e-20)
    return float((norm.max(axis=1) > 0.5).mean())


if __name__ == "__main__":
    for path in sys.argv[1:]:
        x, rate = read_mono(path)
        print(f"{periodicity(x, rate):.3f} {path}")
