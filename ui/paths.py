"""Where the app's files are: app.py, app_pages/, data/samples/ (and assets/, .streamlit/ beside them).

In a clone they are the repository's top level, beside this ``ui`` package. The wheel installs them as
``ir_metrics_lab/app/`` beside ``ui`` in site-packages (pyproject.toml maps that package to the top level). This
module is the one place that knows which of the two is in use; ui's helpers and the ``ir-metrics-lab`` launcher
(ir_metrics_lab.__main__) both read it, so neither reaches into the other for it. It looks at files, not imports.
"""

from pathlib import Path

_TOP = Path(__file__).resolve().parent.parent  # the clone's top level, or site-packages
_INSTALLED = _TOP / "ir_metrics_lab" / "app"

APP_DIR = _INSTALLED if (_INSTALLED / "app.py").is_file() else _TOP
APP_SCRIPT = APP_DIR / "app.py"
SAMPLES_DIR = APP_DIR / "data" / "samples"
PAGES_DIR = APP_DIR / "app_pages"
