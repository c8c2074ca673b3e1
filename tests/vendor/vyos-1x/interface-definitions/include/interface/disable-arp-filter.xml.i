<!-- include start from interface/disable-arp-filter.xml.i -->
<leafNode name="disable-arp-filter">
  <properties>
    <help>Disable ARP filter on this interface</help>
    <valueless/>
  </properties>
</leafNode>
<!-- include end -->
