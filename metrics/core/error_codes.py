"""Every error code an InputError can carry: its title, what it means, how to fix the input, and an example of a bad
input with its fix. The docs' pages ``reference/errors/<code>`` are generated from this table (scripts/docs_site.py).

A code is a short lowercase slug, ``<subject>-<problem>`` (``line-columns``, ``grade-not-integer``): it reads as
what went wrong without a lookup, it names the rule rather than a message's wording (so it stays when the wording
changes), and it is the page's file name. A code, once published, is never renamed or reused for another rule.
"""

from __future__ import annotations

from typing import NamedTuple


class ErrorCode(NamedTuple):
    code: str
    title: str  # one line
    meaning: str  # what the refusal means
    fix: str  # how to fix the input
    bad: str  # an example of bad input (a file's lines, a command line, a call)
    good: str  # the same, fixed


_RUN_LINE = "q1 Q0 d1 1 12.5 bm25"
_CODES = (
    # --- files: reading them ---
    ErrorCode(
        "file-missing",
        "No such file",
        "The path names no file (or no Parquet file or dataset directory).",
        "Check the spelling and the working directory; a relative path is read from the directory the command or "
        "the app was started in.",
        "python -m metrics qrels.txt rnu.txt",
        "python -m metrics qrels.txt run.txt",
    ),
    ErrorCode(
        "file-unreadable",
        "The file cannot be opened or read",
        "The path exists but cannot be read: it is a directory, you lack permission, or the system reported an "
        "error while reading (the message quotes it).",
        "Give the path of a file you can read (`ls -l` shows its permissions); for a folder of Parquet files, give "
        "the folder of a dataset whose files end in `.parquet`.",
        "python -m metrics qrels.txt runs/",
        "python -m metrics qrels.txt runs/bm25.run",
    ),
    ErrorCode(
        "gzip-invalid",
        "Not a valid gzip file",
        "The file starts like a gzip file but cannot be decompressed: it is truncated or damaged.",
        "Download or copy the file again, or decompress it yourself (`gunzip -t FILE` tells whether it is whole) "
        "and give the plain text.",
        "run.txt.gz, cut short while copying",
        "the whole run.txt.gz (gunzip -t run.txt.gz prints nothing)",
    ),
    ErrorCode(
        "file-empty",
        "The file has no data",
        "The file, table or dataset has no data rows: it is empty, or holds only blank lines, comments or a header.",
        "Give the file that holds the run or the judgments; check that it was written completely.",
        "query,doc,score\n",
        "query,doc,score\nq1,d1,12.5\n",
    ),
    ErrorCode(
        "comments-only",
        "Only blank or comment lines at the start",
        "The first kilobytes hold only blank lines and comment lines (starting with `#`): this does not look like a "
        "run or qrels file.",
        "Check that this is the file you meant; remove the long comment block, or put the data first.",
        "# notes\n# more notes\n# ... (thousands of comment lines)\n",
        f"{_RUN_LINE}\n",
    ),
    ErrorCode(
        "not-text",
        "A binary file, not UTF-8 text",
        "A line holds a NUL byte or bytes that are not UTF-8: a binary file (a spreadsheet, an archive, a "
        "compressed file not in gzip) was given where a text file was expected.",
        "Export the data as plain text (TREC columns, CSV or TSV, UTF-8); a spreadsheet as CSV; a zip unpacked.",
        "run.xlsx (a spreadsheet)",
        f"run.txt:\n{_RUN_LINE}\n",
    ),
    ErrorCode(
        "line-too-long",
        "A line is too long",
        "One line is longer than the reader's block (several MiB): the file's lines are not separated by newlines, "
        "or a field holds a whole document.",
        "Write one record per line, separated by newlines; keep ids short.",
        "q1 Q0 d1 1 12.5 bm25 q1 Q0 d2 2 11.0 bm25 ... (one line for the whole run)",
        "q1 Q0 d1 1 12.5 bm25\nq1 Q0 d2 2 11.0 bm25\n",
    ),
    ErrorCode(
        "parse-failed",
        "The file cannot be parsed",
        "The fast parser refused the file and the line-by-line check found no bad line to name; this should not "
        "happen, and is worth a bug report with the file.",
        "Check the file's layout against the input formats page; report the file if it looks right.",
        "(a file both parsers disagree on)",
        "(the same file, reported as an issue)",
    ),
    ErrorCode(
        "parquet-invalid",
        "Not a readable Parquet file",
        "A `.parquet` file (or a file in a Parquet dataset directory) cannot be read as Parquet; the message quotes "
        "pyarrow's reason.",
        "Write the file again with pyarrow or pandas (`DataFrame.to_parquet`), and keep only Parquet files in a "
        "dataset's directory.",
        "run.parquet, renamed from run.csv",
        "run.parquet, written by pandas.read_csv('run.csv').to_parquet('run.parquet')",
    ),
    # --- files: their layout ---
    ErrorCode(
        "line-columns",
        "A line has the wrong number of columns",
        "In a whitespace-separated file, a line has a number of fields other than the format's: a run has 6 "
        "(`query Q0 doc rank score tag`; more are ignored), qrels 4 (`query iter doc grade`), prefs 5, qrels_jg 4, "
        "a z-score file 4, ndeval's subtopic qrels 4 (`topic subtopic doc judgment`). Ids cannot contain spaces.",
        "Write every line with the format's fields, separated by spaces or tabs; replace spaces inside ids; for a "
        "file with a header, use CSV or TSV.",
        "q1 d1 12.5\n",
        f"{_RUN_LINE}\n",
    ),
    ErrorCode(
        "csv-columns",
        "A CSV/TSV row has more or fewer columns than its header",
        "A CSV or TSV file's data row has a number of fields other than its header's.",
        'Quote fields that contain the delimiter (`"a,b"`); give every row the header\'s columns.',
        "query,doc,score\nq1,d1,12.5,extra\n",
        "query,doc,score\nq1,d1,12.5\n",
    ),
    ErrorCode(
        "header-expected",
        "A header naming the columns was expected",
        "The file's first line is comma- or tab-separated, so it is read as CSV or TSV, which need a header naming "
        "the columns; the first line names none.",
        "Add a header line naming the columns (query, doc and score or grade; other accepted names are on the input "
        "formats page), or separate a TREC file's columns with spaces.",
        "q1,d1,12.5\n",
        "query,doc,score\nq1,d1,12.5\n",
    ),
    ErrorCode(
        "column-missing",
        "A needed column is missing",
        "A CSV/TSV header, a DataFrame or a Parquet file has no column for the query, the doc, or the value (a run's "
        "score, qrels' grade); the message lists the names accepted.",
        "Rename the column to an accepted name (e.g. `query`, `doc`, `score`, `grade`); for qrels given as a run "
        "(or a run as qrels), give the other file.",
        "qid,docno,value\nq1,d1,12.5\n",
        "qid,docno,score\nq1,d1,12.5\n",
    ),
    ErrorCode(
        "column-type",
        "A value column is not numeric",
        "A DataFrame's or Parquet file's score or grade column cannot be converted to numbers as a whole: it holds "
        "another type, or text that is not plainly a number (`' 1.5'` with spaces, `'1_000'`).",
        "Convert the column to numbers first, e.g. `df['score'] = df['score'].astype(float)`.",
        "pd.DataFrame({'query': ['q1'], 'doc': ['d1'], 'score': [' 1.5']})",
        "pd.DataFrame({'query': ['q1'], 'doc': ['d1'], 'score': [1.5]})",
    ),
    ErrorCode(
        "input-type",
        "An input of the wrong kind",
        "The reader was given something it cannot read as that kind: a run where qrels are wanted (or qrels where a "
        "run is), an object of another type, or a dict whose values are not dicts of docs.",
        "Give a path, bytes, a DataFrame or a dict: a run as `{query: {doc: score}}` or `{query: [doc, ...]}`, "
        "qrels as `{query: {doc: grade}}`.",
        "read_qrels({'q1': ['d1', 'd2']})",
        "read_qrels({'q1': {'d1': 1, 'd2': 0}})",
    ),
    # --- files: their values ---
    ErrorCode(
        "id-empty",
        "An id is empty",
        "A query or document id is empty (or missing from a table's row); in the app, a document or query was added "
        "without an id.",
        "Give every query and document a non-empty id; a CSV row with two commas in a row has an empty field.",
        "query,doc,score\nq1,,12.5\n",
        "query,doc,score\nq1,d1,12.5\n",
    ),
    ErrorCode(
        "id-too-long",
        "An id is too long",
        "A query or document id is longer than 4,096 bytes: usually a document's text in the id's column.",
        "Put the document's id in that column, not its text or URL-encoded content.",
        "q1 Q0 <the whole document's text> 1 12.5 bm25",
        f"{_RUN_LINE}\n",
    ),
    ErrorCode(
        "not-a-number",
        "A value that must be a number is not one",
        "A run's score (or a z-score file's mean or deviation, a preference level) is not a number, or is NaN.",
        "Write a decimal number (`12.5`, `-3`, `1e-4`); remove NaN rows or give them a score; check that the "
        "columns are in the format's order (the score is a run's 5th column).",
        "q1 Q0 d1 1 high bm25\n",
        "q1 Q0 d1 1 12.5 bm25\n",
    ),
    ErrorCode(
        "grade-not-integer",
        "A grade is not a whole number",
        "A relevance grade is not an integer: a word, a fraction such as 0.7, or NaN. trec_eval reads grades as "
        "integers; `1.0` is read as 1.",
        "Map scores to integer grades explicitly, e.g. `1 if score >= 0.5 else 0`, or `round(10 * score)`.",
        "q1 0 d1 0.7\n",
        "q1 0 d1 1\n",
    ),
    ErrorCode(
        "grade-out-of-range",
        "A grade is out of range",
        "A grade is an integer too large for trec_eval's C int (beyond ±2,147,483,647), which usually means a score "
        "column was given as grades; in the app, a grade outside the scale chosen (0 to 1, 3 or 4).",
        "Give small integer grades (0 = not relevant, 1, 2, ... = more relevant); in the app, pick a larger scale "
        "first.",
        "q1 0 d1 98765432100\n",
        "q1 0 d1 2\n",
    ),
    ErrorCode(
        "ndeval-number",
        "ndeval needs a natural number here",
        "ndeval 4.5 (`ir-ndeval`) reads a topic, a subtopic, a judgment and a rank as natural numbers: digits only, "
        "up to 1000009. A name such as `q1`, a sign, a decimal point or a larger number is refused, as ndeval "
        "refuses it. (A run's topic may carry a task prefix, `wt12-151`, as ndeval allows.)",
        "Number the topics and subtopics (keep a table from your names to the numbers), write ranks as 1, 2, 3, ... "
        "and judgments as 0 or 1; for topics named by text, use `ir-metrics`, which reads any id.",
        "q1 1 d1 1\n",
        "101 1 d1 1\n",
    ),
    ErrorCode(
        "duplicate-doc",
        "A document appears twice in one ranking",
        "A run (or a ranked list) gives the same document twice for one query; trec_eval aborts on it, as we do. "
        "Under `-M N` only a document twice in the query's top N is refused: trec_eval cuts, then checks. "
        "On the command line only the queries trec_eval evaluates are checked (those in the judgments; with "
        "`-D LEVEL.QID` that one): a query only the run has is skipped, duplicates and all.",
        "Keep one line per (query, doc): the one with the highest score, e.g. with "
        "`sort -k1,1 -k5,5gr run.txt | sort -u -k1,1 -k3,3 -s`, or `df.drop_duplicates(['query', 'doc'])`.",
        "q1 Q0 d1 1 12.5 bm25\nq1 Q0 d1 2 11.0 bm25\n",
        "q1 Q0 d1 1 12.5 bm25\n",
    ),
    ErrorCode(
        "rank-repeated",
        "A rank appears twice in one topic",
        "ndeval 4.5 (`ir-ndeval`) orders each topic by the rank column, so two lines of one topic with the same rank "
        "leave the order undecided, and ndeval refuses them (unless `-traditional`, which orders by score). A "
        "shared task in the app refuses them too: a run gives one line per rank.",
        "Number each topic's lines 1, 2, 3, ... in the order you mean, or give `-traditional` to order by score.",
        "101 Q0 d1 1 12.5 bm25\n101 Q0 d2 1 11.0 bm25\n",
        "101 Q0 d1 1 12.5 bm25\n101 Q0 d2 2 11.0 bm25\n",
    ),
    ErrorCode(
        "duplicate-judgment",
        "A document is judged twice",
        "Qrels judge the same (query, doc) twice, or a prefs or qrels_jg file gives a document twice in one group: "
        "which judgment counts would be a guess.",
        "Keep one judgment per (query, doc) (per group for prefs and qrels_jg files); if assessors disagreed, decide "
        "the grade first.",
        "q1 0 d1 1\nq1 0 d1 2\n",
        "q1 0 d1 2\n",
    ),
    ErrorCode(
        "prefs-inconsistent",
        "A judgment group's preferences contradict each other",
        "In a prefs or qrels_prefs file, one group of a query prefers A to B in one subgroup and B to A (directly or "
        "through other documents) in another, or gives a document level 0 in one subgroup and a level above 0 in "
        'another. trec_eval aborts ("Pref inconsistency", "has both 0 and non-0 rel_level"), as we do.',
        "Resolve the contradiction within the group: give each document one consistent level per group, or split "
        "the disagreeing judgments into separate groups.",
        "q1 g1 s1 dA 2\nq1 g1 s1 dB 1\nq1 g1 s2 dA 1\nq1 g1 s2 dB 2\n",
        "q1 g1 s1 dA 2\nq1 g1 s1 dB 1\nq1 g2 s2 dA 1\nq1 g2 s2 dB 2\n",
    ),
    ErrorCode(
        "duplicate-zscore",
        "A z-score line is given twice",
        "A z-score file (trec_eval -Z) gives two lines for one (query, measure).",
        "Keep one `query measure mean std_dev` line per query and measure.",
        "q1 map 0.25 0.1\nq1 map 0.30 0.1\n",
        "q1 map 0.25 0.1\n",
    ),
    # --- options and values typed ---
    ErrorCode(
        "measure-unknown",
        "An unknown measure name",
        "A measure name (`-m`, a measure list, `parse_measure`) names no measure this library computes.",
        "Check the spelling against the measures' pages (names are case-insensitive: `ndcg@10`, `map`, `P_10`).",
        "python -m metrics -m ndgc@10 qrels.txt run.txt",
        "python -m metrics -m ndcg@10 qrels.txt run.txt",
    ),
    ErrorCode(
        "measure-cutoff",
        "A measure's cutoff is missing, not allowed or not a positive integer",
        "A measure that needs a cutoff has none, one that takes none has one, or the cutoff is not a positive integer.",
        "Give a positive whole cutoff where the measure takes one (`P_10`, `ndcg@10`, `-m P.5,10`), none otherwise.",
        "python -m metrics -m P@0 qrels.txt run.txt",
        "python -m metrics -m P@10 qrels.txt run.txt",
    ),
    ErrorCode(
        "measure-parameters",
        "A measure's parameters are malformed",
        "A measure's parameters (after `.` or in `name(param=value)`) have the wrong number, name, type or range, "
        "or a gain map is malformed.",
        "Write each parameter as the measure's page shows (e.g. `rbp(p=0.8)`, `ndcg_cut.10`).",
        "python -m metrics -m 'rbp(p=2)' qrels.txt run.txt",
        "python -m metrics -m 'rbp(p=0.8)' qrels.txt run.txt",
    ),
    ErrorCode(
        "measure-list",
        "A measure list is malformed",
        "An `-m` option is empty, has an empty item (two commas), or a bare cutoff follows a measure that takes none.",
        "Name measures separated by commas, each with its own cutoff, or trec_eval's `-m P.5,10`.",
        "python -m metrics -m map,,P_10 qrels.txt run.txt",
        "python -m metrics -m map,P_10 qrels.txt run.txt",
    ),
    ErrorCode(
        "measure-format",
        "A measure trec_eval's output format cannot print",
        "`--format trec_eval` prints trec_eval's measures under trec_eval's names; this measure has none there (a "
        "measure of another tool, an exponential-gain variant, or one with `rel=`), or its cutoff does not fit "
        "trec_eval's name.",
        "Drop `--format trec_eval` to print every measure in this tool's format, or ask for trec_eval's measure "
        "(`ndcg_cut_10` rather than `NDCG_exp@10`).",
        "python -m metrics --format trec_eval -m NDCG_exp@10 qrels.txt run.txt",
        "python -m metrics -m NDCG_exp@10 qrels.txt run.txt",
    ),
    ErrorCode(
        "cutoff-k",
        "The cutoff k is not a positive integer",
        "A cutoff k (a readable function's `k`, the app's k) is 0, negative or not a whole number; None means the "
        "whole list.",
        "Give k as a whole number of 1 or more, or None (or leave it out) for the whole list.",
        "precision(ranking, qrels, k=0)",
        "precision(ranking, qrels, k=10)",
    ),
    ErrorCode(
        "option-level",
        "The relevance level (-l) is negative",
        "trec_eval's `-l` sets the smallest grade that counts as relevant; it is 0 or more.",
        "Give `-l` a whole number of 0 or more (1 by default; 2 counts only grades of 2 and above).",
        "python -m metrics -l -1 qrels.txt run.txt",
        "python -m metrics -l 2 qrels.txt run.txt",
    ),
    ErrorCode(
        "option-max-docs",
        "The number of documents per query (-M) is not positive",
        "trec_eval's `-M` keeps only the top N documents of each query's ranking; N must be 1 or more.",
        "Give `-M` a positive number, or leave it out to keep every document.",
        "python -m metrics -M 0 qrels.txt run.txt",
        "python -m metrics -M 1000 qrels.txt run.txt",
    ),
    ErrorCode(
        "option-value",
        "A command-line option's value is out of range",
        "An option's value is outside what it accepts (`--digits` 0 to 17, `--block-bytes` positive, "
        "`--permutations` at least 1, `--top` 0 or more, `--tools` two names, two to 26 runs to compare, ...); the "
        "message names the option.",
        "Give the option a value in its range; `--help` lists every option.",
        "python -m metrics --digits 40 qrels.txt run.txt",
        "python -m metrics --digits 6 qrels.txt run.txt",
    ),
    ErrorCode(
        "option-conflict",
        "Options that do not go together",
        "Two options ask for what cannot be done together: a measure trec_eval cannot compute from the judgments' "
        "`-R` format, or `--stream`, `--dask`, `--to-parquet` with an `-R` format whose run is read whole.",
        "Drop one of the options; the message names the measures or options each `-R` format accepts.",
        "python -m metrics -R prefs -m map prefs.txt run.txt",
        "python -m metrics -R prefs -m prefs_simp prefs.txt run.txt",
    ),
    ErrorCode(
        "debug-query",
        "The query given to -D is not in both files",
        "trec_eval's `-D LEVEL.QUERY` evaluates one query; that query must be judged, and (without `-c`) be in the "
        "run, or there is nothing to evaluate.",
        "Give a query id found in both the run and the judgments (ids are compared as text: `q1` is not `Q1`).",
        "python -m metrics -D 1.q99 qrels.txt run.txt",
        "python -m metrics -D 1.q1 qrels.txt run.txt",
    ),
    ErrorCode(
        "upload-too-large",
        "An uploaded file is over the app's size limit",
        "The app refuses an upload (or a path typed on the Evaluate a run page) larger than Streamlit's "
        "`server.maxUploadSize`, in MB, the limit the app was started with.",
        "Raise `maxUploadSize` under `[server]` in `.streamlit/config.toml` and restart the app, or evaluate the "
        "file with the command line, which reads runs of any size (`ir-metrics qrels.txt run.txt`, `--stream` for "
        "very large ones).",
        "big.run (3.0 MB), with maxUploadSize = 2 in .streamlit/config.toml",
        "[server]\nmaxUploadSize = 200\n",
    ),
    # --- a shared task's uploads (ir_metrics_lab.core.shared_task) ---
    ErrorCode(
        "json-line-invalid",
        "A JSON Lines line is not a document",
        "Each line of a JSON Lines collection (or topics file) must be one JSON object with the fields `id`, `title` "
        "and `text` (a topic: `id`, `title`, `description`), each a string; this line is not valid JSON, not an "
        "object, lacks a field, or gives one as a number or a list.",
        "Write one object per line, every field a quoted string; a text with line breaks keeps them as `\\n` "
        "inside the string.",
        '{"id": "d1", "title": "Flat tyre", "text": 12}\n',
        '{"id": "d1", "title": "Flat tyre", "text": "Find the hole with soapy water."}\n',
    ),
    ErrorCode(
        "doc-id-repeated",
        "A collection gives one id twice",
        "Two documents (or two topics) of an uploaded collection have the same id: runs and judgments name documents "
        "by id, so which one a run meant would be a guess.",
        "Give every document its own id; for near-duplicates, keep both under two ids.",
        "id,title,text\nd1,Lights,Front and rear.\nd1,Locks,A D-lock.\n",
        "id,title,text\nd1,Lights,Front and rear.\nd2,Locks,A D-lock.\n",
    ),
    ErrorCode(
        "collection-field",
        "A document's title or text is empty or too long",
        "A document of an uploaded collection has an empty title or text, or one longer than the app takes (a title "
        "of 300 characters, a text of 20,000): documents are read and judged on phones.",
        "Give every document a title and a text; cut long documents into passages, each with its own id.",
        "id,title,text\nd1,,Front and rear lights.\n",
        "id,title,text\nd1,Lights,Front and rear lights.\n",
    ),
    ErrorCode(
        "task-unknown-id",
        "A run names a topic or document the task does not have",
        "A run submitted to a shared task ranks a document that is not in the task's collection, or answers a topic "
        "the task did not set: it was made for another collection, or its ids are spelled differently (ids are "
        "compared as text: `D1` is not `d1`).",
        "Rank only the documents of the task's collection, under the task's topic ids; download the collection "
        "from the task's page to check the ids.",
        "t1 Q0 doc-404 1 12.5 bm25\n",
        "t1 Q0 d17 1 12.5 bm25\n",
    ),
    ErrorCode(
        "task-too-large",
        "An upload is over a shared task's limits",
        "A shared task takes runs of at most 2 MB and 1,000 documents per topic, and collections of at most 20 MB, "
        "5,000 documents and 50 topics: a class pools, judges and scores them live.",
        "Cut the run to its top 1,000 documents per topic (the pool only reads the top k), or the collection to "
        "what the class will judge.",
        "a run with 1,500 lines for topic t1",
        "the same run, its top 1,000 lines for topic t1",
    ),
    ErrorCode(
        "share-link",
        "A share link's key cannot be read",
        "A Playground link has a key whose value is malformed (a grade that is not a whole number, an unknown "
        "scale, broken percent-encoding, ...): that key takes its default, and the rest of the link is kept.",
        "Copy the link again from the app's Share button; edit a link by hand with the keys of the share links page.",
        "/playground?docs=d1,d2&grades=3,abc",
        "/playground?docs=d1,d2&grades=3,1",
    ),
)

#: code -> its ErrorCode
CODES: dict[str, ErrorCode] = {entry.code: entry for entry in _CODES}
