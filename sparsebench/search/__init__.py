"""The search engine: blocked posting lists on disk, exhaustive and pruned top-k search on
CPU threads (scipy, compiled MaxScore and block scan) or torch, exact order-independent
scores and trec_eval's tie order.
"""
