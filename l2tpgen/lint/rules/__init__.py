"""Every lint rule, imported explicitly (no discovery), in code order."""

from __future__ import annotations

from l2tpgen.lint.rules.base import DeviceRule, FleetRule, ModelRule, Rule
from l2tpgen.lint.rules.class_definitions import (
    CleartextSecret,
    LocalInterfaceNotLoopback,
    LocalInterfaceWithoutIp,
    MissingDfBit,
    MissingIpPmtu,
    NoCef,
    PmtuOnStatic,
    UndefinedL2tpClass,
    UndefinedPwClass,
)
from l2tpgen.lint.rules.frames import FrameFormatMismatch
from l2tpgen.lint.rules.pairs import (
    PeerAddressMismatch,
    PwClassAsymmetry,
    StaticSessionNotMirrored,
    UnpairedXconnect,
    VcIdMismatch,
    VlanMismatch,
)
from l2tpgen.lint.rules.paths import DefaultHoldQueue, MtuBudget, ProcessSwitched
from l2tpgen.lint.rules.security import (
    CryptoAclMissesPseudowire,
    L2tpOpenToAnySource,
    UnencryptedPublicPseudowire,
)
from l2tpgen.lint.rules.security_filter import WanFilterCutsVpn
from l2tpgen.lint.rules.security_pairs import IpsecAtOneEndOnly
from l2tpgen.lint.rules.sessions import (
    BadPwEncapsulation,
    ManualXconnectWithSignalledClass,
    StaticClassOnSignalledXconnect,
    XconnectToSelf,
)
from l2tpgen.lint.rules.spelling import MisspeltSectionHeader
from l2tpgen.lint.rules.underlay import PeerWithoutRoute
from l2tpgen.lint.rules.workloads import HeartbeatMtuBelowCorosync, LiveMigrationOnLossyPath
from l2tpgen.lint.rules.xconnect import (
    AttachmentHasIp,
    CdpOnAttachment,
    DuplicateDot1q,
    DuplicateVcId,
    SingleTrunkXconnect,
)

DEVICE_RULES: tuple[DeviceRule, ...] = (
    SingleTrunkXconnect(),
    MissingIpPmtu(),
    MissingDfBit(),
    DefaultHoldQueue(),
    CleartextSecret(),
    UndefinedPwClass(),
    UndefinedL2tpClass(),
    DuplicateVcId(),
    LocalInterfaceWithoutIp(),
    PmtuOnStatic(),
    AttachmentHasIp(),
    CdpOnAttachment(),
    MtuBudget(),
    LocalInterfaceNotLoopback(),
    DuplicateDot1q(),
    NoCef(),
    ProcessSwitched(),
    StaticClassOnSignalledXconnect(),
    ManualXconnectWithSignalledClass(),
    XconnectToSelf(),
    BadPwEncapsulation(),
    UnencryptedPublicPseudowire(),
    CryptoAclMissesPseudowire(),
    L2tpOpenToAnySource(),
    WanFilterCutsVpn(),
    MisspeltSectionHeader(),
    PeerWithoutRoute(),
)
MODEL_RULES: tuple[ModelRule, ...] = (HeartbeatMtuBelowCorosync(), LiveMigrationOnLossyPath())
FLEET_RULES: tuple[FleetRule, ...] = (
    PeerAddressMismatch(),
    VcIdMismatch(),
    PwClassAsymmetry(),
    VlanMismatch(),
    StaticSessionNotMirrored(),
    UnpairedXconnect(),
    IpsecAtOneEndOnly(),
    FrameFormatMismatch(),
)
ALL_RULES: tuple[Rule, ...] = (*DEVICE_RULES, *MODEL_RULES, *FLEET_RULES)
BY_CODE: dict[str, Rule] = {rule.code: rule for rule in ALL_RULES}

__all__ = ["ALL_RULES", "BY_CODE", "DEVICE_RULES", "FLEET_RULES", "MODEL_RULES", "Rule"]
