"""What leaves the app as a file: the worked solution (Markdown, CSV) and a page as a notebook (the stakeholder brief
is ir_metrics_lab.core.brief)."""
