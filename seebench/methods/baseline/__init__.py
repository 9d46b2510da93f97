"""Classical baselines with SELU's model selection: TF-IDF+XGBoost and fastText.

The estimators plug into the ``baseline`` method (``seebench.methods.baseline.method``); the models
``tfidf-xgboost`` and ``fasttext`` are registered by ``seebench.builtin.classic``. xgboost and
fastText are imported only when an estimator is fitted, never at plugin import time (nor numpy:
the target kinds the estimators support are in ``seebench.methods.baseline.common``).
"""
