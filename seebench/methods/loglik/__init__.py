"""The ``loglik`` method: a closed label set ranked by the model's log-likelihoods."""
