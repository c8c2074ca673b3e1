"""Rules about text IOS would refuse, which silently takes other checks with it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.lint.finding import Severity
from l2tpgen.lint.rules.base import DeviceRule

if TYPE_CHECKING:
    from collections.abc import Iterator

    from l2tpgen.ios.facts import DeviceFacts
    from l2tpgen.lint.finding import Finding


class MisspeltSectionHeader(DeviceRule):
    """A section header is misspelt, so the section and every check that reads it are lost.

    ## What it does
    Flags a top-level line whose first word is close to `interface`, `l2tp-class` or
    `pseudowire-class` without being it or an abbreviation IOS accepts (`12tp-class`,
    `pseudowire-clas`, `interfce`), and names the keyword meant.

    ## Why is this bad?
    IOS refuses the line (`% Invalid input detected`) and the lines under it are typed in global
    configuration, where most are refused too: the class or interface does not exist. The linter
    cannot read it either, so the rules about that class or interface say nothing, and an xconnect
    naming the class is reported as using an undefined one (L2T006, L2T007).

    ## Use instead
    ```
    l2tp-class secure
     digest secret 0 example
    ```
    """

    code = "L2T030"
    name = "misspelt-section-header"
    severity = Severity.ERROR

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        for word, header, at in device.misspelt:
            yield self.finding(
                device.file,
                at,
                f"`{word}` is not an IOS command (did you mean `{header}`?): IOS refuses this "
                "section, and no check reads it",
                f"write `{header}`",
            )
