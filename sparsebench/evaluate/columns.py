"""The columns of leaderboard.tsv and metrics.tsv besides the datasets' own: names the
config's checks and the output catalogue read, without the tables' code
(sparsebench.evaluate.leaderboard)."""

from __future__ import annotations

# Columns of leaderboard.tsv besides the datasets (and their `sig:{dataset}` marks): a
# dataset of one of these names would be lost among them (workflow.names refuses it).
INDEX = "model"
AVERAGE = "average"
TUNING = "tuning"
PARTIAL = "partial"
PARTIAL_SEPARATOR = "; "  # between the cells of a model's `partial` entry
PARTIAL_MARK = "†"  # beside a partial run's score in the report
OWN_COLUMNS = (INDEX, AVERAGE, TUNING, PARTIAL)
MARK_PREFIX = "sig:"
JUDGED_PREFIX = "judged@10:"  # a dataset's Judged@10 column beside its score
# a dataset's optimistic score beside it: the primary metric with its unjudged documents
# (in the top k) counted relevant; with the score (them non-relevant) it bounds the band
# complete judgments could give (not always above it: a normalised measure's ideal grows
# too)
OPTIMISTIC_PREFIX = "optimistic:"
# a dataset's cost columns beside its score: prefix -> the efficiency.tsv column shown.
# Only costs that identical runs repeat exactly: timings vary from run to run, and stay
# in efficiency.tsv and leaderboard.md, so that leaderboard.tsv stays byte-identical.
COST_COLUMNS = {"flops:": "flops", "postings_per_query:": "postings_touched_mean"}
# metrics.tsv: every metric of every pair, long
LONG_COLUMNS = ("model", "dataset", "metric", "value")
