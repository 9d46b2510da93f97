"""Built-in benchmark suites: one package per suite (task YAMLs, preparation code, metadata),
registered by its plugin in :mod:`seebench.suites.<suite>.plugin`."""
