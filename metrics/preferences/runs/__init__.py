"""Whole runs scored against preferences (trec_eval -R prefs, -R qrels_prefs) and judgment groups (-R qrels_jg): the
judgments joined with the run, the families' kernels run, the values summarized as for qrels (metrics.evaluation)."""
