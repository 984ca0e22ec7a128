"""Other tools' ways of scoring (ranx, scikit-learn, BEIR, ir_measures ...) as settings of ours, and why two tools give
two numbers on the same run."""
