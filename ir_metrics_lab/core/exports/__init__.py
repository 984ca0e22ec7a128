"""What leaves the app as a file: the worked solution (Markdown, CSV), a page as a notebook, the stakeholder brief."""
