"""A brief for people who will never open the app: what a comparison says, in plain words first, with its numbers,
two or three charts, what each measure rewards, the caveats that hold for this data, and how the numbers were made;
written as one self-contained HTML file (``html_page``, its charts drawn as inline SVG by ``svg``), or as that page in
a one-page PDF (``html_page.pdf``).

Four briefs, one module each, for the pages that offer "Download the brief": two runs (``two_runs``: Compare runs'
pair view), a leaderboard of runs (``many_runs``: Compare runs), two tools on one run (``two_tools``: Why tools
differ) and the two lists of Retriever A vs B (``two_lists``). What a brief holds is ``model``'s; the sentences they
share ``wording``'s; the caveats ``caveats``, ``rankings`` and ``other_tools``; the statistics' words ``noise``; the
figures the brief adds to the app's own ``charts``.

Pure (no Streamlit): every number comes from metrics/ (the engine, metrics.compare's pairing, paired tests, bootstrap
interval, Holm's correction and leaderboard, metrics.tools' settings and explanation, metrics.teaching's diagnosis);
the brief only picks them and says them. The strings are plain text, user text (run names, file names, query and
document ids, titles) as it is: ``html_page`` escapes every one of them.
"""
