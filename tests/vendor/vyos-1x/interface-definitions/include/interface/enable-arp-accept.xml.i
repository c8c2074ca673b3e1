<!-- include start from interface/enable-arp-accept.xml.i -->
<leafNode name="enable-arp-accept">
  <properties>
    <help>Enable ARP accept on this interface</help>
    <valueless/>
  </properties>
</leafNode>
<!-- include end -->
