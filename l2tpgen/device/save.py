"""Saving the running config: ``write memory``, judged by what it prints.

Success always ends in ``[OK]`` (real outputs quoted in the research notes: netmiko's EXAMPLES.md,
NetSPoC's device.go, captures with the NVRAM-overwrite prompt). Anything else is an unsaved change,
which push reports with the command to run by hand.
"""

from __future__ import annotations

import re
import time
from typing import Any

from l2tpgen.device.messages import Kind, classify
from l2tpgen.device.session import exec_prompts, read_count
from l2tpgen.errors import DeviceError

# What `write memory` prints (real outputs quoted in the research notes: netmiko's EXAMPLES.md,
# NetSPoC's device.go, captures with the NVRAM-overwrite prompt): success always ends in `[OK]`.
_SAVE_ASKS = re.compile(r"(?:\[confirm\]|\[no\]:|\[yes/no\]:?)\s*$")
_SAVE_BUSY = "startup-config file open failed"
SAVE_TRIES = 3  # NetSPoC retries a busy NVRAM twice, 3 s apart


def judge_save(output: str) -> str | None:
    """None if ``write memory`` output says the config was saved, else why not."""
    if "[OK]" in output:
        return None
    for line in output.splitlines():
        text = line.strip()
        if "too large for nvram" in text.lower() or _SAVE_BUSY in text:
            return text
        if classify(text) is Kind.REFUSAL:
            return text
    return "no [OK] in its answer"


def save_config(
    connection: Any,  # noqa: ANN401 - netmiko
    command: str = "write memory",
    *,
    timeout: float = 100,
    retry_after: float = 3.0,
) -> str | None:
    """Save the running config; None when saved, else the router's reason.

    ``[confirm]`` (overwriting NVRAM written by another release) is confirmed; ``Truncate
    config?? [no]`` is declined (a truncated startup config is worse than none). A busy NVRAM is
    tried again, as NetSPoC does.
    """
    prompt = exec_prompts(connection)
    either = re.compile(f"{prompt.pattern}|{_SAVE_ASKS.pattern}", re.MULTILINE)
    reason: str | None = None
    for attempt in range(SAVE_TRIES):
        if attempt:
            time.sleep(retry_after)
        output = ""
        try:
            connection.write_channel(command + "\n")
            while True:
                output += read_count(connection, either, 1, timeout)
                asked = _SAVE_ASKS.search(output)
                if asked is None:
                    break
                connection.write_channel("\n")  # confirm; decline a truncation (default: no)
                output = output[: asked.start()] + output[asked.end() :] + "\n"
        except DeviceError as exc:
            return f"`{command}` got no answer ({exc})"
        reason = judge_save(output)
        if reason is None or _SAVE_BUSY not in reason:
            return reason
    return reason
