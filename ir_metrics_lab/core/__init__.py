"""The app's pure core: everything the pages show that needs no Streamlit, tested without a server.

It imports only ``metrics`` and itself, never Streamlit nor the app's Streamlit side (tests/test_structure.py holds
the rule). Here: the playground's Scenario (``scenario``), the one helper that shows user text literally
(``markdown``), a scenario's numbers (``numbers``), where the app shows each family (``family_display``), share links
(``url``), the app's files and arguments (``paths``, ``cli_args``) and counts in words (``words``); lessons, figures,
exports, the stakeholder brief and the live class's store are sub-packages.
"""
