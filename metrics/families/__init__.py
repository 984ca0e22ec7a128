"""One module per measure family (related families share one when they share code): the readable function with
its per-rank breakdown, the engine kernel (on metrics.core.prepared), the LaTeX definition and worked formula, and the
``Family`` record (where the app shows a family is the app's: ir_metrics_lab/core/family_display.py).
metrics.catalog.registry collects them; nothing here imports the registry."""
