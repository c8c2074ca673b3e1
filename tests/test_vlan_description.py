"""The VLAN description: written by the IOS and VyOS renderers and read back by `import`, from one
home (``l2tpgen.render.marks``), so that a field added to it cannot break the import silently."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from l2tpgen.importer.sites import vlan_name
from l2tpgen.render.marks import MARK, VlanDescription, read_description

names = st.from_regex(r"[a-z][a-z0-9-]{0,30}", fullmatch=True)


@given(vlan=st.integers(1, 4094), name=names, peer=names, marked=st.booleans())
def test_a_description_l2tpgen_writes_reads_back_as_what_it_says(
    vlan: int, name: str, peer: str, *, marked: bool
) -> None:
    written = VlanDescription(vlan, name, peer)
    assert read_description(written.text(marked=marked)) == written


@given(vlan=st.integers(1, 4094), name=names, peer=names)
def test_import_names_the_vlan_from_the_description_render_wrote(
    vlan: int, name: str, peer: str
) -> None:
    assert vlan_name(VlanDescription(vlan, name, peer).text(), vlan) == name


def test_a_description_someone_else_wrote_is_not_read_as_ours() -> None:
    assert read_description("uplink to core") is None
    assert read_description(f"{MARK} VLAN 10 two words to b") is None
    # not ours: the VLAN's name is made from the whole text
    assert vlan_name("VLAN 10 public to site-b", 10) == "VLAN-10-public-to-site-b"
