"""Live class polls: a teacher asks the room about a ranked list, students answer on their phones.

``live_class.store`` keeps polls and answers in a database (SQLite by default, PostgreSQL by URL);
``live_class.questions`` builds the questions and scores them with ``metrics``. Neither draws anything (the store
does not even import Streamlit): the pages (app_pages/ask_class.py, app_pages/join_class.py) and ui.live_class render.
"""
