"""Where the app's files are: app.py, app_pages/, data/samples/ (and assets/, .streamlit/ beside them).

In a clone they are the repository's top level, beside the ``ir_metrics_lab`` package. The wheel installs them as
``ir_metrics_lab/app/`` inside it (pyproject.toml maps that package to the top level). This module is the one place
that knows which of the two is in use; the app's helpers and the ``ir-metrics-lab`` launcher
(ir_metrics_lab.__main__) both read it, so neither reaches into the other for it. It looks at files, not imports.
"""

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]  # ir_metrics_lab/, in the clone or in site-packages
_INSTALLED = _PACKAGE / "app"

APP_DIR = _INSTALLED if (_INSTALLED / "app.py").is_file() else _PACKAGE.parent
APP_SCRIPT = APP_DIR / "app.py"
SAMPLES_DIR = APP_DIR / "data" / "samples"
SHARED_TASK_DIR = APP_DIR / "data" / "shared_task"  # the sample collection and topics of a shared task
PAGES_DIR = APP_DIR / "app_pages"  # a folder per section of the navigation; app.py routes every page
# The pages other pages switch to (st.switch_page takes a script's path; absolute, so any entrypoint works).
PLAYGROUND_PAGE = PAGES_DIR / "play" / "playground.py"
AB_PAGE = PAGES_DIR / "play" / "ab.py"
ASK_THE_CLASS_PAGE = PAGES_DIR / "live_class" / "ask_class.py"
ERRATA_PAGE = PAGES_DIR / "reference" / "errata.py"
EVALUATE_PAGE = PAGES_DIR / "your_data" / "your_data.py"
COMPARE_PAGE = PAGES_DIR / "your_data" / "compare_runs.py"
