"""``seebench tasks show NAME --prompt``: the messages a model receives for a real test instance."""

from __future__ import annotations

from seebench.data.dataset import DEFAULT_SEED, load_task_data
from seebench.methods.prompting.method import build_prompts
from seebench.registry import Registry
from seebench.tasks.spec import TaskSpec


def preview_prompt(
    task: TaskSpec, registry: Registry, shots: int = 0, seed: int = DEFAULT_SEED
) -> str:
    """The prompt of the first test instance (as ``seebench eval --limit 1`` would send it)."""
    if task.behaviour.answer_format(task) is None:
        return f"# prompting does not handle {task.type} tasks"
    data = load_task_data(task, registry, seed=seed, limit=1)
    prompt = build_prompts(task, data, shots, seed)[0]
    sample = data.test[0]
    lines = [
        f"# {task.name}: test instance {sample.id} (gold: {sample.target}), "
        f"{len(prompt.shot_ids)} shot(s), seed {seed}"
    ]
    for message in prompt.messages:
        lines += [f"--- {message['role']} ---", message["content"]]
    return "\n".join(lines)
