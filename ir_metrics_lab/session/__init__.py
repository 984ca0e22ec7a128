"""What a visitor's session holds: its state (the one owner of session_state keys), its datasets and drill-downs."""
