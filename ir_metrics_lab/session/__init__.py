"""What a visitor's session holds: its state (one *_state module per thing it holds, the only modules that know the
session_state keys), its datasets and drill-downs.

Pages read and change the app's state only through the *_state modules. Their getters supply defaults, so every page
also runs on its own (``streamlit run app_pages/<section>/<page>.py`` or AppTest.from_file). Plain keys (not widget
keys) hold the canonical state: Streamlit deletes a widget's key when a page that does not render that widget runs, but
plain keys survive page switches."""
