"""Collections read through the ir_datasets package (https://ir-datasets.com): any id
that provides documents, queries and judgments, e.g. msmarco-passage/dev/small,
msmarco-passage/trec-dl-2019/judged, beir/scifact/test, miracl/sw/dev, cranfield,
vaswani, antique/test.

Downloads and cache: ir_datasets fetches each file the first time it is read and checks
it against the md5 it publishes (ir_datasets/etc/downloads.json); a file already in its
cache is used as it is, never checked again, so a damaged cache is cleared by deleting
the dataset's folder there. The cache is the folder IR_DATASETS_HOME (default
~/.ir_datasets), which ir_datasets reads once, when it is imported: set it in the
environment of the process (for the workflow, of every job), not from Python afterwards.
Files derived from the downloads stay there too: extracted members, and for some
collections (BEIR, among others) a document store (docs.pklz4) built on the first pass
over the documents, about the size of the compressed corpus. Datasets that need a licence
(TREC disks, ClueWeb) cannot be downloaded; ir_datasets then prints where to put them.

Fields: ir_datasets documents and queries are namedtuples whose fields differ between
collections. Documents: `text` if they have it as a string, else `body` (as a string:
the raw HTML `body` of web crawls does not count), else the document's `default_text()`;
the title is the `title` field, or null when the text is `default_text()` (which already
holds the title where there is one). Queries: `query_field` if given, else `text`, else
`title` (TREC topics: the title is the standard short query), else `default_text()`.
Judgments: (query_id, doc_id, relevance) as ir_datasets gives them (graded 0-3 for TREC
DL), except for collections whose grades are codes where smaller means more relevant
(Cranfield: sparsebench.data.grades regrades them to gains, says so in the log and
records it in the dataset's provenance); grades ir_datasets' qrels_defs do not define
are warned of. A (query, document) pair judged twice with the same
grade is kept once; with different grades it is an error, as in files read by
sparsebench.data.qrels.parse_qrels (ir_datasets qrels that grade a pair per subtopic or per
passage are not single relevance judgments).
"""

from __future__ import annotations

import contextlib
import difflib
import logging
import operator
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any

import pandas as pd
import pyarrow as pa

from sparsebench.core.errors import DataError
from sparsebench.data.grades import IR_DATASETS_REGRADINGS, Regrading, undefined_grades

log = logging.getLogger(__name__)

_BATCH = 10_000
_CATALOGUE = "list them with `ir_datasets list` or see https://ir-datasets.com"
_NEEDED = ("docs", "queries", "qrels")
_NAMES = {"docs": "documents", "queries": "queries", "qrels": "judgments (qrels)"}
DEFAULT_TEXT = "default_text()"


def _ir_datasets():
    """The ir_datasets module, imported on first use (the import takes time, and it creates
    the cache folder IR_DATASETS_HOME and empty sub-folders of some collections in it)."""
    try:
        import ir_datasets
    except ImportError:
        raise DataError(
            "the ir_datasets source needs the ir_datasets package: pip install ir_datasets"
        ) from None
    return ir_datasets


def _by_pattern(dataset_id: str) -> bool:
    """dataset_id is not registered but matches a pattern of the registry (clirmatrix):
    ir_datasets creates such a dataset on first use, after downloading its catalogue."""
    registry = _ir_datasets().registry
    patterns = getattr(registry, "_patterns", ())  # private: (compiled regex, initializer)
    return dataset_id not in set(registry) and any(p.match(dataset_id) for p, _ in patterns)


def _load(dataset_id: str):
    irds = _ir_datasets()
    try:
        with _reading(dataset_id, "catalogue entry"):  # a pattern id downloads a catalogue
            return irds.registry[dataset_id]
    except KeyError:
        raise DataError(_unknown_id(dataset_id, list(irds.registry), irds.__version__)) from None


def _unknown_id(dataset_id: str, known: list[str], version: str) -> str:
    close = difflib.get_close_matches(dataset_id, known, n=5, cutoff=0.6)
    hint = f"closest: {', '.join(close)}" if close else "no id is close to it"
    return f"ir_datasets {version} has no dataset {dataset_id!r} ({hint}); {_CATALOGUE}"


def _complete(dataset) -> bool:
    return all(getattr(dataset, f"has_{kind}")() for kind in _NEEDED)


def _complete_relatives(dataset_id: str) -> list[str]:
    """Ids below dataset_id (or, failing that, below its nearest parent) that provide
    documents, queries and judgments, shortest first: what to evaluate instead."""
    registry = _ir_datasets().registry
    names = list(registry)
    parts = dataset_id.split("/")
    while parts:
        prefix = "/".join(parts) + "/"
        found = [n for n in names if n.startswith(prefix) and _complete(registry[n])]
        if found:
            return sorted(found, key=lambda n: (n.count("/"), n))
        parts.pop()
    return []


def _check_complete(dataset_id: str, dataset, shown: int = 10) -> None:
    missing = [kind for kind in _NEEDED if not getattr(dataset, f"has_{kind}")()]
    if not missing:
        return
    relatives = _complete_relatives(dataset_id)
    more = f" and {len(relatives) - shown} more" if len(relatives) > shown else ""
    hint = (
        f"; ids with all three: {', '.join(relatives[:shown])}{more}"
        if relatives
        else f"; {_CATALOGUE}"
    )
    raise DataError(
        f"ir_datasets {dataset_id!r} provides no {' and no '.join(_NAMES[m] for m in missing)}; "
        f"a benchmark needs documents, queries and judgments{hint}"
    )


def check_id(dataset_id: str) -> None:
    """Raise DataError unless dataset_id is an ir_datasets id with documents, queries and
    judgments. Reads the registry only, never downloads: usable when the config is read.
    An id that ir_datasets builds from a pattern (clirmatrix/...) passes unchecked: its
    catalogue is a download, left to the job (IrDatasetsSource.check)."""
    if _by_pattern(dataset_id):
        return
    _check_complete(dataset_id, _load(dataset_id))


def _is_str_field(cls, name: str) -> bool:
    """`name` is a field of the namedtuple class `cls` holding a string (annotated str, or
    not annotated): the `body` of web crawls is bytes of HTML, CORD-19's a tuple of
    sections."""
    if name not in getattr(cls, "_fields", ()):
        return False
    kind = getattr(cls, "__annotations__", {}).get(name, str)
    return kind is str or getattr(kind, "__forward_arg__", kind) == "str"  # "str" postponed


def _fields(cls) -> str:
    return ", ".join(getattr(cls, "_fields", ()))


def doc_fields(cls) -> tuple[str | None, str]:
    """(title field or None, text field or DEFAULT_TEXT) of an ir_datasets document class."""
    for name in ("text", "body"):
        if _is_str_field(cls, name):
            return ("title" if _is_str_field(cls, "title") else None), name
    if callable(getattr(cls, "default_text", None)):
        return None, DEFAULT_TEXT
    raise DataError(
        f"ir_datasets documents of type {cls.__name__} have no text or body field and no "
        f"default_text() (fields: {_fields(cls)}); they cannot be indexed as text"
    )


def query_field(cls, wanted: str | None = None) -> str:
    """The field of an ir_datasets query class that is searched, or DEFAULT_TEXT."""
    strings = [f for f in getattr(cls, "_fields", ()) if f != "query_id" and _is_str_field(cls, f)]
    if wanted is not None:
        if wanted not in strings:
            raise DataError(
                f"ir_datasets queries of type {cls.__name__} have no text field "
                f"{wanted!r} (query_field); their text fields: {', '.join(strings) or 'none'}"
            )
        return wanted
    for name in ("text", "title"):
        if name in strings:
            return name
    if callable(getattr(cls, "default_text", None)):
        return DEFAULT_TEXT
    raise DataError(
        f"ir_datasets queries of type {cls.__name__} have no text or title field and no "
        f"default_text() (fields: {_fields(cls)}); name the field to search with query_field"
    )


def _getter(field: str | None) -> Callable[[Any], Any]:
    if field is None:
        return lambda _: None
    if field == DEFAULT_TEXT:
        return operator.methodcaller("default_text")
    return operator.attrgetter(field)


def _doc_batch(docs: list, title: Callable, text: Callable) -> pa.RecordBatch:
    return pa.record_batch(
        [
            pa.array([str(d.doc_id) for d in docs], pa.string()),
            pa.array([title(d) for d in docs], pa.string()),
            pa.array([text(d) for d in docs], pa.string()),
        ],
        names=["_id", "title", "text"],
    )


def qrels_frame(rows: list[tuple[str, str, int]], what: str) -> pd.DataFrame:
    """Judgments as query_id, doc_id, grade: repeated identical pairs kept once, a pair
    judged with two different grades an error (as parse_qrels treats files)."""
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "grade"]).astype({"grade": "int64"})
    if frame.empty:
        raise DataError(f"{what}: no judgments")
    pairs = frame.drop_duplicates()
    conflicts = pairs.duplicated(["query_id", "doc_id"], keep=False)
    if conflicts.any():
        grades = pairs[conflicts]
        row = grades.iloc[0]
        same = grades[(grades.query_id == row.query_id) & (grades.doc_id == row.doc_id)]
        raise DataError(
            f"{what}: ({row.query_id}, {row.doc_id}) is judged more than once with different "
            f"grades ({', '.join(map(str, sorted(same.grade)))}); {conflicts.sum()} such "
            "judgments in all"
        )
    if len(pairs) != len(frame):
        log.warning("%s: %d repeated judgments collapsed", what, len(frame) - len(pairs))
    return pairs.reset_index(drop=True)


def _grade_definitions(dataset) -> dict[int, str]:
    """ir_datasets' own words for each grade (qrels_defs), {} when it gives none."""
    try:
        definitions = dataset.qrels_defs() if dataset.has_qrels() else {}
    except NotImplementedError:  # ir_datasets' BaseQrels: a collection that defines none
        return {}
    return {int(g): str(m) for g, m in (definitions or {}).items()}


@contextlib.contextmanager
def _reading(dataset_id: str, what: str) -> Iterator[None]:
    """ir_datasets' failures (download, missing optional package, licensed data not in
    place, malformed file) as a DataError naming the dataset."""
    try:
        yield
    except ImportError as exc:  # an optional package: ir_datasets names the extra to install
        raise DataError(f"ir_datasets {dataset_id!r}: {exc}") from exc
    except (OSError, RuntimeError, ValueError) as exc:
        home = _ir_datasets().util.home_path()
        raise DataError(
            f"ir_datasets could not read the {what} of {dataset_id!r}: "
            f"{type(exc).__name__}: {exc} (its cache: {home}, set by IR_DATASETS_HOME; "
            "collections that need a licence are placed there by hand, as ir_datasets "
            "explains in its log)"
        ) from exc


def published_docs_count(dataset) -> int | None:
    """The number of documents ir_datasets publishes for a dataset (its metadata), None
    when it has none. Reads no data and writes nothing."""
    try:
        return dataset.docs_metadata().get("count")
    except (AttributeError, KeyError, OSError, ValueError):
        return None


@dataclass(frozen=True)
class IrDatasetsSource:
    """A dataset of the ir_datasets catalogue, by id. `split` is informational (the id
    already names the queries and judgments); `query_field` picks the query field that
    is searched (default: text, else title, else the query's default_text())."""

    dataset_id: str
    split: str
    query_field: str | None = None

    def _dataset(self):
        dataset = _load(self.dataset_id)
        _check_complete(self.dataset_id, dataset)
        return dataset

    def check(self) -> None:
        dataset = self._dataset()
        doc_fields(dataset.docs_cls())
        query_field(dataset.queries_cls(), self.query_field)

    def _lock(self):
        """Held while this dataset's files are read: ir_datasets downloads to one fixed
        temporary name per file, so two jobs sharing a collection (MS MARCO dev, TREC DL
        2019 and 2020) must not fetch it at the same time."""
        from filelock import FileLock

        home = _ir_datasets().util.home_path()
        home.mkdir(parents=True, exist_ok=True)
        top = self.dataset_id.split("/", 1)[0]
        return FileLock(str(home / f".sparsebench-{top}.lock"))

    def corpus_batches(self) -> Iterator[pa.RecordBatch]:
        with self._lock():
            yield from self._corpus_batches()

    def _corpus_batches(self) -> Iterator[pa.RecordBatch]:
        dataset = _load(self.dataset_id)  # documents only: a corpus's id may have no queries
        title_field, text_field = doc_fields(dataset.docs_cls())
        title, text = _getter(title_field), _getter(text_field)
        with _reading(self.dataset_id, "documents"):
            docs = iter(dataset.docs_iter())
        count = 0
        while True:
            with _reading(self.dataset_id, "documents"):
                batch = list(islice(docs, _BATCH))
            if not batch:
                break
            count += len(batch)
            yield _doc_batch(batch, title, text)
        published = published_docs_count(dataset)
        if published is not None and published != count:
            log.warning(
                "ir_datasets %s: %d documents read where ir_datasets publishes %d; a cached "
                "file may be truncated or stale (cached files are not checked again: delete "
                "the collection's folder in %s to download it anew)",
                self.dataset_id,
                count,
                published,
                _ir_datasets().util.home_path(),
            )

    def queries_and_qrels(self) -> tuple[pa.Table, pd.DataFrame]:
        with self._lock():
            return self._queries_and_qrels()

    def _queries_and_qrels(self) -> tuple[pa.Table, pd.DataFrame]:
        dataset = self._dataset()
        text = _getter(query_field(dataset.queries_cls(), self.query_field))
        with _reading(self.dataset_id, "queries"):
            queries = list(dataset.queries_iter())
        table = pa.table(
            {
                "query_id": pa.array([str(q.query_id) for q in queries], pa.string()),
                "text": pa.array([text(q) for q in queries], pa.string()),
            }
        )
        with _reading(self.dataset_id, "judgments"):
            rows = [
                (str(r.query_id), str(r.doc_id), int(r.relevance)) for r in dataset.qrels_iter()
            ]
        what = f"ir_datasets {self.dataset_id} qrels"
        qrels = qrels_frame(rows, what)
        regrading = self._regrading()
        if regrading is not None:
            log.warning("%s: %s", what, regrading.reason)
            return table, regrading.apply(qrels, what)
        definitions = _grade_definitions(dataset)
        undefined = undefined_grades(qrels, definitions) if definitions else []
        if undefined:
            log.warning(
                "%s: grades %s are not among those ir_datasets defines for it (%s); nDCG takes "
                "them as gains, binary measures count those >= the relevance level",
                what,
                undefined,
                "; ".join(f"{g}: {m}" for g, m in sorted(definitions.items())),
            )
        return table, qrels

    def _regrading(self) -> Regrading | None:
        return IR_DATASETS_REGRADINGS.get(self.dataset_id.split("/", 1)[0])

    def grades(self) -> dict[str, Any]:
        """What the grades mean (ir_datasets' qrels_defs), and how they were regraded."""
        regrading = self._regrading()
        if regrading is not None:
            return regrading.record()
        definitions = _grade_definitions(_load(self.dataset_id))
        return {"meaning": {str(g): m for g, m in sorted(definitions.items())}}

    def corpus_fingerprint(self) -> dict[str, Any]:
        """What the documents alone are read from (a corpus's corpus.json): no split,
        grades or query field."""
        irds = _ir_datasets()
        dataset = _load(self.dataset_id)
        title_field, text_field = doc_fields(dataset.docs_cls())
        return {
            "kind": "ir_datasets",
            "path": self.dataset_id,
            "ir_datasets_version": irds.__version__,
            "docs_count": published_docs_count(dataset),
            "doc_title_field": title_field,
            "doc_text_field": text_field,
        }

    def fingerprint(self) -> dict[str, Any]:
        dataset = _load(self.dataset_id)
        return {
            **self.corpus_fingerprint(),
            "split": self.split,
            "grades": self.grades(),
            "query_field": (
                query_field(dataset.queries_cls(), self.query_field)
                if dataset.has_queries()
                else None
            ),
        }
