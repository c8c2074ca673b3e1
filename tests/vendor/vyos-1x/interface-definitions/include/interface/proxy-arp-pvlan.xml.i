<!-- include start from interface/proxy-arp-pvlan.xml.i -->
<leafNode name="proxy-arp-pvlan">
  <properties>
    <help>Enable private VLAN proxy ARP on this interface</help>
    <valueless/>
  </properties>
</leafNode>
<!-- include end -->
