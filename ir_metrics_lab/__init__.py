"""IR Metrics Lab as an installed program: where the app's files are, and the ``ir-metrics-lab`` command
(``__main__``).

In a clone the app is the repository's top level (app.py, app_pages/, data/samples/, assets/, .streamlit/). The wheel
installs those same files as ``ir_metrics_lab/app/`` (pyproject.toml maps that package to the top level), so
``APP_DIR`` is the one place that knows which of the two is in use.
"""

from pathlib import Path

_HERE = Path(__file__).resolve().parent
_INSTALLED = _HERE / "app"

APP_DIR = _INSTALLED if (_INSTALLED / "app.py").is_file() else _HERE.parent
APP_SCRIPT = APP_DIR / "app.py"
SAMPLES_DIR = APP_DIR / "data" / "samples"
PAGES_DIR = APP_DIR / "app_pages"
