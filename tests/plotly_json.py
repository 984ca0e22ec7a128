"""Reading a Plotly figure's JSON (an element's spec in AppTest) in tests."""

from __future__ import annotations

import base64

import numpy as np


def values(array) -> list:
    """Plotly JSON stores numpy arrays as {"dtype", "bdata"[, "shape"]} (typed arrays); plain lists otherwise."""
    if isinstance(array, dict):
        flat = np.frombuffer(base64.b64decode(array["bdata"]), dtype=array["dtype"])
        shape = [int(n) for n in str(array.get("shape", len(flat))).split(",")]
        return flat.reshape(shape).tolist()
    return array
