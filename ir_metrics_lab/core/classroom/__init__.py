"""Live class polls, drawing nothing: the store (SQLite or PostgreSQL), the questions, the moves and the watcher.

``store`` keeps polls and answers in a database (SQLite by default, PostgreSQL by URL); ``questions`` builds the
questions and scores them with ``metrics``; ``moves`` diagnoses a student's move; ``watch`` notices new answers;
``identity`` signs a phone's student id; ``limits`` bounds how often a phone or a page may act. The
pages (app_pages/live_class/ask_class.py, app_pages/live_class/join_class.py) and ``ir_metrics_lab.classroom`` draw
them."""
