"""Colour-vision checks for the app's palettes (issue #27, item 4): how a colour looks under protanopia,
deuteranopia and tritanopia, how far apart two colours look (CIEDE2000), and WCAG contrast. Pure Python, no
Streamlit: tests/test_colour_vision.py runs it on every palette the app draws with.

The simulation is Machado, Oliveira and Fernandes (2009), "A physiologically-based model for simulation of color
vision deficiency", IEEE TVCG 15(6), at severity 1.0 (a dichromat: the hardest case), applied to linear RGB.
CIEDE2000 follows Sharma, Wu and Dalal (2005), "The CIEDE2000 color-difference formula: implementation notes".
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Rgb = tuple[float, float, float]  # sRGB, 0-1

# Machado et al. (2009), Table 1, severity 1.0: linear RGB in, linear RGB out.
DEFICIENCIES: dict[str, tuple[Rgb, Rgb, Rgb]] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def rgb(hex_colour: str) -> Rgb:
    """'#0072B2' -> (0.0, 0.447..., 0.698...)."""
    value = hex_colour.lstrip("#")
    return tuple(int(value[i : i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _gamma(c: float) -> float:
    c = min(max(c, 0.0), 1.0)
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def simulate(colour: Rgb, deficiency: str) -> Rgb:
    """``colour`` as a person with ``deficiency`` sees it (a key of DEFICIENCIES)."""
    linear = [_linear(c) for c in colour]
    return tuple(_gamma(sum(m * c for m, c in zip(row, linear, strict=True))) for row in DEFICIENCIES[deficiency])  # type: ignore[return-value]


def lab(colour: Rgb) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour."""
    r, g, b = (_linear(c) for c in colour)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e2000(lab1: Sequence[float], lab2: Sequence[float]) -> float:
    """CIEDE2000 colour difference (kL = kC = kH = 1).

    Sharma et al. (2005), Table 1, pair 1:

    >>> round(delta_e2000((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485)), 4)
    2.0425
    """
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    else:
        dh = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dh_big = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (dh_big / s_h) ** 2 + r_t * (dc / s_c) * (dh_big / s_h))


def difference(first: str, second: str, deficiency: str | None = None) -> float:
    """How far apart two hex colours look (CIEDE2000), to normal vision or with ``deficiency``."""
    one, two = rgb(first), rgb(second)
    if deficiency is not None:
        one, two = simulate(one, deficiency), simulate(two, deficiency)
    return delta_e2000(lab(one), lab(two))


def contrast(first: str, second: str) -> float:
    """WCAG 2 contrast ratio of two hex colours.

    >>> round(contrast("#767676", "#FFFFFF"), 2)
    4.54
    """

    def luminance(colour: Rgb) -> float:
        r, g, b = (_linear(c) for c in colour)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted((luminance(rgb(first)), luminance(rgb(second))), reverse=True)
    return (high + 0.05) / (low + 0.05)
