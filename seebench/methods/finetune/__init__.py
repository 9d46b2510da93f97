"""Fine-tuning transformers with task heads (SELU §IV-B/C): the ``finetune`` method.

Modules: :mod:`.config` (the training protocol and its overrides), :mod:`.arch` (loading a
model and its architecture family), :mod:`.heads` (pooling/dropout/linear heads),
:mod:`.encode` (tokenisation, NER alignment, MLM masking, dynamic padding, length grouping),
:mod:`.train` (the training loop), :mod:`.distributed` (DeepSpeed over ``torchrun``) and
:mod:`.method` (the method object the runner calls). Importing this package is cheap: torch
and transformers are imported only inside the functions that need them.
"""
