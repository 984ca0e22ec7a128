"""trec_eval's measures of other judgments than graded qrels: preferences (-R prefs, and qrels read as preferences,
-R qrels_prefs) and judgment groups (-R qrels_jg). Their files read, what the measures count one query at a time
(the specification) and vectorized (the table of judgments and the kernels), their formulas, whole runs scored
against them (runs/), and the preference measures' worked example; the families themselves are declared in
metrics.families (prefs_*, *_avgjg)."""
