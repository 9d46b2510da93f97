"""The study's released data files, by checksum (light: read when plugins register, no pandas)."""

from __future__ import annotations

#: sha256 of ``data/chat_data.csv`` in clinicalml/realhumaneval at commit 29de154c.
RELEASED_CHAT_SHA256 = "deda75d51434a6979bd69516eed4f9fa6cfe835b93bd066bf599351b8b7eef7e"
RELEASED_CHAT_NAME = "chat_data.csv"
