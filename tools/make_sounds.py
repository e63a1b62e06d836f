"""Synthesise the game page's sounds (move, capture, check, low time, game end) as small WAV files.

The sounds are made for this project from sine tones and a little noise, so they carry no
licence but the project's own: `python tools/make_sounds.py` writes them to static/sounds/
(the generated files are committed; run it again only to change them). Each is short, mono,
16-bit at 22.05 kHz, a few kilobytes, with a quick fade in and out so nothing clicks.
"""

from __future__ import annotations

import math
import random
import struct
import wave
from collections.abc import Callable
from pathlib import Path

RATE = 22_050
FOLDER = Path(__file__).resolve().parent.parent / "static" / "sounds"

Voice = Callable[[float], float]  # time in seconds -> sample in [-1, 1]


def knock(pitch: float, noise: float) -> Voice:
    """A wooden knock: a decaying low tone with a burst of noise at its start."""
    rng = random.Random(int(pitch))

    def voice(t: float) -> float:
        tone = math.sin(2 * math.pi * pitch * t) * math.exp(-t * 38)
        burst = (rng.random() * 2 - 1) * noise * math.exp(-t * 120)
        return 0.8 * tone + burst

    return voice


def chime(*pitches: float, step: float = 0.0, decay: float = 6.0) -> Voice:
    """Tones struck one after another `step` seconds apart, each ringing out."""

    def voice(t: float) -> float:
        total = 0.0
        for index, pitch in enumerate(pitches):
            start = index * step
            if t >= start:
                local = t - start
                total += math.sin(2 * math.pi * pitch * local) * math.exp(-local * decay)
        return total / len(pitches)

    return voice


def beep(pitch: float, count: int, length: float, gap: float) -> Voice:
    """`count` short beeps: the low-time warning."""

    def voice(t: float) -> float:
        slot = t % (length + gap)
        if t >= count * (length + gap) or slot > length:
            return 0.0
        return 0.6 * math.sin(2 * math.pi * pitch * t)

    return voice


SOUNDS: dict[str, tuple[Voice, float]] = {
    "move": (knock(180, 0.35), 0.12),
    "capture": (knock(140, 0.9), 0.18),
    "check": (chime(660, 880, step=0.07, decay=12), 0.3),
    "lowtime": (beep(990, 2, 0.07, 0.06), 0.27),
    "end": (chime(523, 659, 784, step=0.12, decay=4), 0.8),
}


def render(voice: Voice, seconds: float) -> bytes:
    """16-bit little-endian samples of `voice`, faded in over 2 ms and out over 20 ms."""
    count = int(RATE * seconds)
    fade_in, fade_out = int(RATE * 0.002), int(RATE * 0.02)
    frames = bytearray()
    for index in range(count):
        envelope = min(1.0, index / fade_in, (count - index) / fade_out)
        sample = max(-1.0, min(1.0, voice(index / RATE) * envelope))
        frames += struct.pack("<h", int(sample * 32_000))
    return bytes(frames)


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name, (voice, seconds) in SOUNDS.items():
        with wave.open(str(FOLDER / f"{name}.wav"), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(RATE)
            out.writeframes(render(voice, seconds))
        print(f"{name}.wav: {seconds:.2f} s")


if __name__ == "__main__":
    main()
