"""Streamlit-side helpers shared by the pages; scenario, charts, tables, narrative, url, words and quiz are pure and
unit-tested without a server. Importing the package once checks the legacy pages/ router (ui/deeplink.py)."""

from ui import deeplink as _deeplink

_deeplink.leave_legacy_router()  # a fresh server's first run may start on a page without app.py (ui/deeplink.py)
