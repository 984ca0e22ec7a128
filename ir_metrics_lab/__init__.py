"""IR Metrics Lab as an installed program: the ``ir-metrics-lab`` command (``__main__``).

The wheel installs the app's files (app.py, app_pages/, data/samples/, assets/, .streamlit/) as ``ir_metrics_lab/app/``;
where they are, in a clone or installed, is ui.paths' to say.
"""
