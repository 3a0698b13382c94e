"""Measures as trec_eval computes them, significance tests, comparison tables,
reproduction checks and the leaderboard."""
