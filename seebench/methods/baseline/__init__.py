"""Classical baselines with SELU's model selection: TF-IDF+XGBoost and fastText.

The estimators plug into the ``baseline`` method (``seebench.methods.baseline.method``); the models
``tfidf-xgboost`` and ``fasttext`` are registered by ``seebench.builtin.classic``. xgboost and
fastText are imported only when an estimator is fitted, never at plugin import time.
"""

from seebench.methods.baseline.common import SUPPORTED_KINDS

__all__ = ["SUPPORTED_KINDS"]
