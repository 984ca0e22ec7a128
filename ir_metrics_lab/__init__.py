"""IR Metrics Lab, the app: its pages' helpers, its pure core and the ``ir-metrics-lab`` command (``__main__``).

Two halves, each a few sub-packages of one concept:

- the Streamlit side: ``shell`` (the frame every page shares), ``session`` (what a visitor's session holds),
  ``parts`` (the pieces pages are drawn from) and ``classroom`` (the live class on screen);
- ``core``, below it, which never imports Streamlit: the playground's Scenario, the literal-text helper, lessons,
  figures, exports and the live class's store.

The wheel installs the app's files (app.py, app_pages/, data/samples/, assets/, .streamlit/) as ``ir_metrics_lab/app/``;
where they are, in a clone or installed, is ``ir_metrics_lab.core.paths``' to say.
"""
