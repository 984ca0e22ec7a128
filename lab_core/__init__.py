"""The lab's pure core, below both ui and live_class: the playground's Scenario (scenario), the one helper that
shows user text literally (markdown) and where the app shows each measure family (family_display). It imports only
metrics, never Streamlit, ui, live_class or app_pages, so the app's helpers and the live class build on it without
importing upward (tests/test_structure.py holds the rule)."""
