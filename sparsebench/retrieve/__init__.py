"""The retrieval stages: a model's queries searched (search/) and written as a TREC run
(runs/), runs imported or fused, and what each search cost."""
