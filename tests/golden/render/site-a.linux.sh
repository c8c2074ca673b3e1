# l2tpgen: site-a (lab-a-rtr1), Linux PE, static L2TPv3 sessions
# WAN eth1, LAN trunk eth2; needs the l2tp_ip, l2tp_eth, 8021q and bridge modules
# NOTE: this site uses dynamic signaling, which Linux cannot speak: these commands are its data plane only (static session IDs = VC IDs), for labs
# Safe to run again (sh -e too)
ip link set dev eth1 up mtu 1500
ip addr replace 10.197.251.215/28 dev eth1
ip route replace default via 10.197.251.209
ip link set dev eth2 up
ip l2tp add tunnel tunnel_id 1 peer_tunnel_id 1 encap ip local 10.197.251.215 remote 10.216.44.47 || ip l2tp show tunnel | grep -q '^Tunnel 1,'
ip l2tp add session name l2tp2996 tunnel_id 1 session_id 126 peer_session_id 126 l2spec_type none || ip link show dev l2tp2996 >/dev/null
ip link set dev l2tp2996 up mtu 1462
ip link add link eth2 name eth2.2996 type vlan id 2996 || ip link show dev eth2.2996 >/dev/null
ip link set dev eth2.2996 up
ip link add br2996 type bridge || ip link show dev br2996 >/dev/null
ip link set dev eth2.2996 master br2996
ip link set dev l2tp2996 master br2996
ip link set dev br2996 up
ip l2tp add session name l2tp2997 tunnel_id 1 session_id 127 peer_session_id 127 l2spec_type none || ip link show dev l2tp2997 >/dev/null
ip link set dev l2tp2997 up mtu 1462
ip link add link eth2 name eth2.2997 type vlan id 2997 || ip link show dev eth2.2997 >/dev/null
ip link set dev eth2.2997 up
ip link add br2997 type bridge || ip link show dev br2997 >/dev/null
ip link set dev eth2.2997 master br2997
ip link set dev l2tp2997 master br2997
ip link set dev br2997 up
ip l2tp add session name l2tp2998 tunnel_id 1 session_id 128 peer_session_id 128 l2spec_type none || ip link show dev l2tp2998 >/dev/null
ip link set dev l2tp2998 up mtu 1462
ip link add link eth2 name eth2.2998 type vlan id 2998 || ip link show dev eth2.2998 >/dev/null
ip link set dev eth2.2998 up
ip link add br2998 type bridge || ip link show dev br2998 >/dev/null
ip link set dev eth2.2998 master br2998
ip link set dev l2tp2998 master br2998
ip link set dev br2998 up
ip l2tp add session name l2tp2999 tunnel_id 1 session_id 125 peer_session_id 125 l2spec_type none || ip link show dev l2tp2999 >/dev/null
ip link set dev l2tp2999 up mtu 1462
ip link add link eth2 name eth2.2999 type vlan id 2999 || ip link show dev eth2.2999 >/dev/null
ip link set dev eth2.2999 up
ip link add br2999 type bridge || ip link show dev br2999 >/dev/null
ip link set dev eth2.2999 master br2999
ip link set dev l2tp2999 master br2999
ip link set dev br2999 up
