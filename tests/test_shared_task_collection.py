"""A shared task's collection and topics: the bundled sample as the issue describes it, uploads in JSON Lines and
CSV read alike, and every bad line refused with its line and a registered code."""

from __future__ import annotations

import json
import re

import pytest

from ir_metrics_lab.core.paths import SHARED_TASK_DIR
from ir_metrics_lab.core.shared_task import collection
from ir_metrics_lab.core.shared_task.collection import (
    Collection,
    Document,
    read_collection,
    read_topics,
    sample,
    search,
)
from metrics.core.error_codes import CODES
from metrics.core.errors import InputError

JSONL = (
    b'{"id": "d1", "title": "Flat tyre", "text": "Soapy water finds the hole."}\n\n'
    b'{"id": "d2", "title": "Lights", "text": "Front and rear."}\n'
)
CSV = b'id,title,text\nd1,Flat tyre,Soapy water finds the hole.\nd2,Lights,"Front, and rear."\n'


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text.lower()))


def test_the_sample_has_eight_topics_and_two_hundred_documents_each_read_back():
    documents, topics = sample()
    assert len(topics) == 8 and len(documents.documents) == 200
    assert [d.id for d in documents.documents] == [f"d{i:03d}" for i in range(1, 201)]
    assert all(t.title and t.description for t in topics)
    raw = [json.loads(line) for line in (SHARED_TASK_DIR / "documents.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [tuple(r.values()) for r in raw] == [(d.id, d.title, d.text) for d in documents.documents]


def test_the_sample_has_near_duplicates():
    """Pairs of documents sharing most of their words (Jaccard of word sets over 0.6): reposts reworded."""
    documents = sample()[0].documents
    words = [_words(d.title + " " + d.text) for d in documents]
    near = [
        (a.id, b.id)
        for i, a in enumerate(documents)
        for j, b in enumerate(documents[i + 1 :], start=i + 1)
        if len(words[i] & words[j]) / len(words[i] | words[j]) > 0.6
    ]
    assert len(near) >= 15, near


def test_the_sample_has_documents_for_several_topics():
    """A document naming the words of two topics (lights and winter, e-bike and theft, children and night...)."""
    documents = sample()[0].documents
    cues = {
        "night": {"lights", "light", "dark"},
        "winter": {"winter", "ice", "snow", "rain"},
        "theft": {"thief", "thieves", "stolen", "theft"},
        "ebike": {"e", "battery"},
        "child": {"child", "children"},
    }
    multi = [d.id for d in documents if sum(bool(_words(d.title + " " + d.text) & c) for c in cues.values()) >= 2]
    assert len(multi) >= 20, multi


def test_json_lines_and_csv_give_the_same_documents():
    from_json, from_csv = read_collection(JSONL, "c.jsonl"), read_collection(CSV, "c.csv")
    assert [d.id for d in from_json.documents] == ["d1", "d2"] == [d.id for d in from_csv.documents]
    assert from_csv.by_id()["d2"].text == "Front, and rear."
    assert read_topics(b"id,title,description\nt1,Flat tyre,\n")[0].description == ""


BAD = [
    (
        "json-line-invalid",
        b'{"id": "d1", "title": "a", "text": "b"}\n{"id": "d2", "title": "a"}\n',
        "c.jsonl, line 2",
        "no 'text'",
    ),
    ("json-line-invalid", b'{"id": "d1", "title": "a", "text": 12}\n', "c.jsonl, line 1", "'text' is a JSON int"),
    (
        "json-line-invalid",
        b'{"id": "d1", "title": "a", "text": "b"}\n{"id": "d2",\n',
        "c.jsonl, line 2",
        "not valid JSON",
    ),
    ("json-line-invalid", b'{"id": "d1", "title": "a", "text": "b"}\n["d2"]\n', "c.jsonl, line 2", "a JSON list"),
    ("doc-id-repeated", b"id,title,text\nd1,a,b\nd2,a,b\nd1,c,d\n", "c.csv, line 4", "given twice (first on line 2)"),
    ("collection-field", b"id,title,text\nd1,,b\n", "c.csv, line 2", "the title is empty"),
    ("collection-field", b"id,title,text\nd1,a,   \n", "c.csv, line 2", "the text is empty"),
    ("collection-field", b"id,title,text\nd1,a," + b"x" * 20_001 + b"\n", "c.csv, line 2", "20,001 characters"),
    ("id-empty", b"id,title,text\nd1,a,b\n,a,b\n", "c.csv, line 3", "id is empty"),
    ("id-too-long", b"id,title,text\n" + b"d" * 101 + b",a,b\n", "c.csv, line 2", "at most 100"),
    ("column-missing", b"id,name,text\nd1,a,b\n", "c.csv, line 1", "no 'title' column"),
    ("csv-columns", b"id,title,text\nd1,a,b,c\n", "c.csv, line 2", "4 fields, the header has 3"),
    ("not-text", b"id,title,text\nd1,a,\xff\n", "c.csv, line 2", "not UTF-8"),
    ("file-empty", b"id,title,text\n\n", "c.csv", "no rows"),
]


@pytest.mark.parametrize(("code", "data", "where", "says"), BAD, ids=[f"{c[0]}-{i}" for i, c in enumerate(BAD)])
def test_a_bad_collection_is_refused_naming_its_line(code, data, where, says):
    name = where.split(",")[0]
    with pytest.raises(InputError) as caught:
        read_collection(data, name)
    assert caught.value.code == code and code in CODES
    assert str(caught.value).startswith(f"{where}: ") and says in str(caught.value), str(caught.value)


def test_too_many_documents_or_topics_are_refused(monkeypatch):
    monkeypatch.setattr(collection, "DOCS_MAX", 2)
    with pytest.raises(InputError, match="more than 2 rows") as caught:
        read_collection(b"id,title,text\nd1,a,b\nd2,a,b\nd3,a,b\n", "c.csv")
    assert caught.value.code == "task-too-large"
    rows = "".join(f"t{i},title,\n" for i in range(collection.TOPICS_MAX + 1))
    with pytest.raises(InputError, match=f"more than {collection.TOPICS_MAX} rows"):
        read_topics("id,title,description\n" + rows, "topics.csv")


def test_the_docs_page_of_the_limits_quotes_the_limits():
    meaning = CODES["task-too-large"].meaning
    assert f"{collection.DOCS_MAX:,} documents" in meaning and f"{collection.TOPICS_MAX} topics" in meaning
    assert (
        f"{collection.BYTES_MAX // 2**20} MB" in meaning
        and f"{collection.TEXT_MAX:,}" in CODES["collection-field"].meaning
    )


def test_search_ranks_title_words_twice_text_words_once():
    docs = Collection(
        (
            Document("d1", "Rain jackets", "Vents under the arms."),  # title: rain -> 2
            Document("d2", "Mudguards", "Rain spray, a rain jacket."),  # text: rain, jacket -> 2
            Document("d3", "Locks", "A D-lock."),  # nothing
            Document("d4", "Rain and a jacket", "Jacket in the rain."),  # title: rain, jacket -> 4; text: 2 -> 6
        )
    )
    assert [d.id for d in search(docs, "RAIN jacket a")] == ["d4", "d1", "d2"]  # 6, then 2 and 2 by id
    assert [d.id for d in search(docs, "rain", limit=2)] == ["d4", "d1"]  # d4 3 (title and text), d1 2, d2 1
    assert search(docs, "  ") == [] and search(docs, "tyre") == []
